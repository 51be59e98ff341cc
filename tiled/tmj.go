package tiled

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
)

// The .tmj and .tsj forms, as encoding/json reads them. Fields whose
// absence means something other than zero are pointers.

type jsonMap struct {
	Type            string        `json:"type"`
	Class           string        `json:"class"`
	Orientation     string        `json:"orientation"`
	RenderOrder     string        `json:"renderorder"`
	Width           int           `json:"width"`
	Height          int           `json:"height"`
	TileWidth       int           `json:"tilewidth"`
	TileHeight      int           `json:"tileheight"`
	Infinite        bool          `json:"infinite"`
	ParallaxOriginX float32       `json:"parallaxoriginx"`
	ParallaxOriginY float32       `json:"parallaxoriginy"`
	BackgroundColor string        `json:"backgroundcolor"`
	Properties      []jsonProp    `json:"properties"`
	Tilesets        []jsonTileset `json:"tilesets"`
	Layers          []jsonLayer   `json:"layers"`
}

type jsonProp struct {
	Name         string          `json:"name"`
	Type         string          `json:"type"`
	PropertyType string          `json:"propertytype"`
	Value        json.RawMessage `json:"value"`
}

type jsonTileset struct {
	Type string `json:"type"`
	tilesetHead
	Image            string     `json:"image"`
	ImageWidth       int        `json:"imagewidth"`
	ImageHeight      int        `json:"imageheight"`
	TransparentColor string     `json:"transparentcolor"`
	Tiles            []jsonTile `json:"tiles"`
	Properties       []jsonProp `json:"properties"`
}

type jsonTile struct {
	tileHead
	Image       string `json:"image"`
	ImageWidth  int    `json:"imagewidth"`
	ImageHeight int    `json:"imageheight"`
	Animation   []struct {
		TileID   int `json:"tileid"`
		Duration int `json:"duration"`
	} `json:"animation"`
	ObjectGroup *struct {
		Objects []jsonObject `json:"objects"`
	} `json:"objectgroup"`
	Properties []jsonProp `json:"properties"`
}

type jsonLayer struct {
	Type string `json:"type"`
	layerHead
	Visible    *bool      `json:"visible"`
	Locked     bool       `json:"locked"`
	Properties []jsonProp `json:"properties"`
	// tile layers
	Data        json.RawMessage `json:"data"`
	Encoding    string          `json:"encoding"`
	Compression string          `json:"compression"`
	Chunks      []struct {
		X      int             `json:"x"`
		Y      int             `json:"y"`
		Width  int             `json:"width"`
		Height int             `json:"height"`
		Data   json.RawMessage `json:"data"`
	} `json:"chunks"`
	// object layers
	Objects []jsonObject `json:"objects"`
	// image layers
	Image            string `json:"image"`
	ImageWidth       int    `json:"imagewidth"`
	ImageHeight      int    `json:"imageheight"`
	TransparentColor string `json:"transparentcolor"`
	RepeatX          bool   `json:"repeatx"`
	RepeatY          bool   `json:"repeaty"`
	// groups
	Layers []jsonLayer `json:"layers"`
}

type jsonObject struct {
	ID int `json:"id"`
	// Pointers: an object made from a template holds only the fields it
	// overrides.
	Name     *string  `json:"name"`
	Class    *string  `json:"class"`
	Type     *string  `json:"type"`
	X        float32  `json:"x"`
	Y        float32  `json:"y"`
	Width    *float32 `json:"width"`
	Height   *float32 `json:"height"`
	Rotation *float32 `json:"rotation"`
	GID      *uint32  `json:"gid"`
	Visible  *bool    `json:"visible"`
	Template string   `json:"template"`
	Ellipse  bool     `json:"ellipse"`
	Point    bool     `json:"point"`
	Polygon  []struct {
		X float32 `json:"x"`
		Y float32 `json:"y"`
	} `json:"polygon"`
	Polyline []struct {
		X float32 `json:"x"`
		Y float32 `json:"y"`
	} `json:"polyline"`
	Text *struct {
		Text string `json:"text"`
	} `json:"text"`
	Properties []jsonProp `json:"properties"`
}

func jsonErr(kind string, err error) error {
	return media.Detail(media.ErrCorrupt, "not a well-formed %s: %v", kind, err)
}

func (ld *loader) decodeTMJ(name string, b []byte) (*Map, error) {
	var x jsonMap
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, jsonErr(".tmj map", err)
	}
	if x.Type != "map" && x.Type != "" {
		return nil, media.Detail(media.ErrCorrupt, "JSON of type %q, want a map (type \"map\")", clip(x.Type))
	}
	if err := checkOrientation(x.Orientation); err != nil {
		return nil, err
	}
	m := &Map{
		Path: name, Class: x.Class, RenderOrder: first(x.RenderOrder, "right-down"),
		Width: x.Width, Height: x.Height, TileWidth: x.TileWidth, TileHeight: x.TileHeight,
		Infinite: x.Infinite, ParallaxOrigin: geom.V(x.ParallaxOriginX, x.ParallaxOriginY),
	}
	if m.Width < 0 || m.Height < 0 || m.TileWidth < 0 || m.TileHeight < 0 {
		return nil, media.Detail(media.ErrCorrupt, "map size %dx%d of %dx%d-pixel tiles, want sizes of 0 or more", m.Width, m.Height, m.TileWidth, m.TileHeight)
	}
	var err error
	if x.BackgroundColor != "" {
		if m.BackgroundColor, err = colorAttr("map backgroundcolor", x.BackgroundColor); err != nil {
			return nil, err
		}
	}
	if m.Properties, err = jsonProperties(x.Properties, "map"); err != nil {
		return nil, err
	}
	if m.Tilesets, err = readTilesets(ld, name, x.Tilesets, func(x *jsonTileset) *tilesetHead { return &x.tilesetHead }, tilesetFromJSON); err != nil {
		return nil, err
	}
	if err := m.checkTilesets(); err != nil {
		return nil, err
	}
	ld.m = m // templates map their GIDs to the map's tilesets
	if m.Layers, err = ld.jsonLayers(name, x.Layers, m.Infinite); err != nil {
		return nil, err
	}
	return m, nil
}

func (ld *loader) decodeTSJ(name string, b []byte) (*Tileset, error) {
	var x jsonTileset
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, jsonErr(".tsj tileset", err)
	}
	if x.Type != "tileset" && x.Type != "" {
		return nil, media.Detail(media.ErrCorrupt, "JSON of type %q, want a tileset (type \"tileset\")", clip(x.Type))
	}
	return tilesetFromJSON(name, &x)
}

func tilesetFromJSON(file string, x *jsonTileset) (*Tileset, error) {
	ts := x.tileset()
	var err error
	if x.Image != "" {
		if ts.Image, err = imageOf(file, x.Image, x.TransparentColor, x.ImageWidth, x.ImageHeight); err != nil {
			return nil, err
		}
	}
	if ts.Properties, err = jsonProperties(x.Properties, "tileset"); err != nil {
		return nil, err
	}
	for i := range x.Tiles {
		xt := &x.Tiles[i]
		t := xt.tile()
		if xt.Image != "" {
			if t.Image, err = imageOf(file, xt.Image, "", xt.ImageWidth, xt.ImageHeight); err != nil {
				return nil, fmt.Errorf("tile %d: %w", xt.ID, err)
			}
		}
		for _, f := range xt.Animation {
			t.Animation = append(t.Animation, Frame{TileID: f.TileID, Duration: time.Duration(f.Duration) * time.Millisecond})
		}
		if xt.ObjectGroup != nil {
			if t.Objects, err = shapes(xt.ObjectGroup.Objects, objectFromJSON); err != nil {
				return nil, fmt.Errorf("tile %d: %w", xt.ID, err)
			}
		}
		if t.Properties, err = jsonProperties(xt.Properties, fmt.Sprintf("tile %d", xt.ID)); err != nil {
			return nil, err
		}
		ts.Tiles = append(ts.Tiles, t)
	}
	if err := ts.finish(); err != nil {
		return nil, err
	}
	return ts, nil
}

func (ld *loader) jsonLayers(file string, xs []jsonLayer, infinite bool) ([]Layer, error) {
	var out []Layer
	for i := range xs {
		x := &xs[i]
		var l Layer
		l.defaults()
		switch x.Type {
		case "tilelayer":
			l.Kind = TileLayer
		case "objectgroup":
			l.Kind = ObjectLayer
		case "imagelayer":
			l.Kind = ImageLayer
		case "group":
			l.Kind = GroupLayer
		default:
			return nil, media.Detail(media.ErrCorrupt, "layer %q has type %q, want tilelayer, objectgroup, imagelayer or group", x.Name, clip(x.Type))
		}
		if x.Visible != nil {
			l.Visible = *x.Visible
		}
		l.Locked = x.Locked
		err := l.setHead(&x.layerHead, func() (Properties, error) { return jsonProperties(x.Properties, "layer") })
		if err == nil {
			switch l.Kind {
			case TileLayer:
				err = ld.jsonTiles(&l, x, infinite)
			case ObjectLayer:
				for j := 0; j < len(x.Objects) && err == nil; j++ {
					o, set, e := objectFromJSON(&x.Objects[j])
					if err = e; err == nil {
						o, err = ld.instance(file, o, set)
					}
					l.Objects = append(l.Objects, o)
				}
			case ImageLayer:
				l.RepeatX, l.RepeatY = x.RepeatX, x.RepeatY
				if x.Image != "" {
					l.Image, err = imageOf(file, x.Image, x.TransparentColor, x.ImageWidth, x.ImageHeight)
				}
			case GroupLayer:
				l.Layers, err = ld.jsonLayers(file, x.Layers, infinite)
				if err != nil {
					return nil, err
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", l.Kind, l.Name, err)
		}
		out = append(out, l)
	}
	return out, nil
}

func (ld *loader) jsonTiles(l *Layer, x *jsonLayer, infinite bool) error {
	if len(x.Chunks) > 0 {
		if !infinite {
			return media.Detail(media.ErrCorrupt, "chunks in a map that is not infinite (want chunks only with \"infinite\": true)")
		}
		chunks := make([]rawChunk, len(x.Chunks))
		for i, c := range x.Chunks {
			r, err := jsonData(c.Data, x.Encoding, x.Compression)
			if err != nil {
				return fmt.Errorf("chunk %d at (%d, %d): %w", i, c.X, c.Y, err)
			}
			chunks[i] = rawChunk{x: c.X, y: c.Y, w: c.Width, h: c.Height, data: r}
		}
		return grid(l, x.Width, x.Height, nil, chunks, ld.opts.maxTiles())
	}
	if len(x.Data) == 0 || string(x.Data) == "null" {
		return grid(l, x.Width, x.Height, nil, nil, ld.opts.maxTiles())
	}
	r, err := jsonData(x.Data, x.Encoding, x.Compression)
	if err != nil {
		return err
	}
	return grid(l, x.Width, x.Height, &r, nil, ld.opts.maxTiles())
}

// jsonData reads a layer's or chunk's data: an array of GIDs, or a string
// in the layer's encoding.
func jsonData(b json.RawMessage, encoding, compression string) (rawData, error) {
	r := rawData{encoding: encoding, compression: compression}
	switch sniff(b) {
	case '[':
		if encoding != "" && encoding != "csv" {
			return r, media.Detail(media.ErrCorrupt, "data is an array but encoding is %q (want an array with encoding csv or none, a string with base64)", clip(encoding))
		}
		var gids []uint32
		if err := json.Unmarshal(b, &gids); err != nil {
			return r, media.Detail(media.ErrCorrupt, "data array: %v (want GIDs from 0 to %d)", err, uint32(1<<32-1))
		}
		r.numbers = true
		r.gids = make([]GID, len(gids))
		for i, g := range gids {
			r.gids[i] = GID(g)
		}
	case '"':
		if err := json.Unmarshal(b, &r.text); err != nil {
			return r, media.Detail(media.ErrCorrupt, "data string: %v", err)
		}
		if encoding == "" {
			return r, media.Detail(media.ErrCorrupt, "data is a string but the layer has no encoding (want \"encoding\": \"base64\")")
		}
	default:
		return r, media.Detail(media.ErrCorrupt, "data is %q, want an array of GIDs or a base64 string", clip(string(b)))
	}
	return r, nil
}

func objectFromJSON(x *jsonObject) (Object, objectSet, error) {
	var o Object
	var set objectSet
	o.ID, o.X, o.Y, o.Template, o.Visible = x.ID, x.X, x.Y, x.Template, true
	if x.Name != nil {
		o.Name, set = *x.Name, set|setName
	}
	if x.Class != nil || x.Type != nil {
		o.Class, set = first(deref(x.Class), deref(x.Type)), set|setClass
	}
	if x.Width != nil {
		o.Width, set = *x.Width, set|setWidth
	}
	if x.Height != nil {
		o.Height, set = *x.Height, set|setHeight
	}
	if x.Rotation != nil {
		o.Rotation, set = *x.Rotation, set|setRotation
	}
	if x.GID != nil {
		o.GID, set = GID(*x.GID), set|setGID
	}
	if x.Visible != nil {
		o.Visible, set = *x.Visible, set|setVisible
	}
	set |= setShape
	switch {
	case o.GID != 0:
		o.Shape = TileObject
	case x.Point:
		o.Shape = Point
	case x.Ellipse:
		o.Shape = Ellipse
	case x.Polygon != nil:
		o.Shape = Polygon
		for _, p := range x.Polygon {
			o.Points = append(o.Points, geom.V(p.X, p.Y))
		}
	case x.Polyline != nil:
		o.Shape = Polyline
		for _, p := range x.Polyline {
			o.Points = append(o.Points, geom.V(p.X, p.Y))
		}
	case x.Text != nil:
		o.Shape, o.Text = TextObject, x.Text.Text
	default:
		set &^= setShape
	}
	var err error
	o.Properties, err = jsonProperties(x.Properties, fmt.Sprintf("object %d", x.ID))
	return o, set, err
}

func jsonProperties(xs []jsonProp, owner string) (Properties, error) {
	if len(xs) == 0 {
		return nil, nil
	}
	ps := make(Properties, 0, len(xs))
	for _, xp := range xs {
		t, ok := parsePropertyType(xp.Type)
		if !ok {
			return nil, media.Detail(media.ErrCorrupt, "%s: property %q has type %q, want %s", owner, xp.Name, clip(xp.Type), propTypesAllowed)
		}
		p, err := jsonValue(xp.Name, t, xp.PropertyType, xp.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", owner, err)
		}
		ps = append(ps, p)
	}
	ps.sort()
	return ps, nil
}

// jsonValue turns a JSON value into a property of type t, writing its
// Value as a .tmx file would. A class's members carry no types in the
// file, so each member's type is that of its JSON value.
func jsonValue(name string, t PropertyType, custom string, v json.RawMessage) (Property, error) {
	p := Property{Name: name, Type: t, CustomType: custom}
	bad := func(want string) error {
		return media.Detail(media.ErrCorrupt, "%s property %q is %s, want %s", t, name, clip(string(v)), want)
	}
	if len(v) == 0 || string(v) == "null" {
		if t == ClassProperty || t == ListProperty || t == StringProperty || t == FileProperty || t == ColorProperty {
			return p, nil
		}
		return p, bad("a value")
	}
	switch t {
	case StringProperty, FileProperty, ColorProperty:
		if err := json.Unmarshal(v, &p.Value); err != nil {
			return p, bad("a string")
		}
	case IntProperty, ObjectProperty, FloatProperty:
		var n json.Number
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		if err := d.Decode(&n); err != nil {
			return p, bad("a number")
		}
		p.Value = n.String()
		if t != FloatProperty {
			if _, err := strconv.ParseInt(p.Value, 10, 64); err != nil {
				if f, err := strconv.ParseFloat(p.Value, 64); err == nil && f == float64(int64(f)) {
					p.Value = strconv.FormatInt(int64(f), 10)
				} else {
					return p, bad("an integer")
				}
			}
		}
	case BoolProperty:
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return p, bad("true or false")
		}
		p.Value = strconv.FormatBool(b)
	case ClassProperty:
		var members map[string]json.RawMessage
		if err := json.Unmarshal(v, &members); err != nil {
			return p, bad("an object of member values")
		}
		for k, mv := range members {
			mt := StringProperty
			switch sniff(mv) {
			case '{':
				mt = ClassProperty
			case 't', 'f':
				mt = BoolProperty
			case '"', 'n':
			default:
				mt = FloatProperty
				var n json.Number
				if json.Unmarshal(mv, &n) == nil {
					if _, err := n.Int64(); err == nil {
						mt = IntProperty
					}
				}
			}
			m, err := jsonValue(k, mt, "", mv)
			if err != nil {
				return p, fmt.Errorf("property %q: %w", name, err)
			}
			p.Members = append(p.Members, m)
		}
		p.Members.sort()
	case ListProperty:
		var items []jsonProp
		if err := json.Unmarshal(v, &items); err != nil {
			return p, bad("an array of items")
		}
		for i, it := range items {
			it.Name = ""
			m, err := jsonProperties([]jsonProp{it}, fmt.Sprintf("property %q item %d", name, i))
			if err != nil {
				return p, err
			}
			p.Members = append(p.Members, m...)
		}
	}
	return p, checkValue(&p)
}
