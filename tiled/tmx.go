package tiled

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
)

// The .tmx and .tsx forms, as encoding/xml reads them. Attributes whose
// absence means something other than zero are pointers.

type xmlMap struct {
	XMLName         xml.Name     `xml:"map"`
	Class           string       `xml:"class,attr"`
	Type            string       `xml:"type,attr"` // class before Tiled 1.9
	Orientation     string       `xml:"orientation,attr"`
	RenderOrder     string       `xml:"renderorder,attr"`
	Width           int          `xml:"width,attr"`
	Height          int          `xml:"height,attr"`
	TileWidth       int          `xml:"tilewidth,attr"`
	TileHeight      int          `xml:"tileheight,attr"`
	Infinite        int          `xml:"infinite,attr"`
	ParallaxOriginX float32      `xml:"parallaxoriginx,attr"`
	ParallaxOriginY float32      `xml:"parallaxoriginy,attr"`
	BackgroundColor string       `xml:"backgroundcolor,attr"`
	Properties      xmlProps     `xml:"properties"`
	Tilesets        []xmlTileset `xml:"tileset"`
	Layers          []xmlLayer   `xml:",any"`
}

type xmlProps struct {
	List []xmlProp `xml:"property"`
}

type xmlProp struct {
	Name         string    `xml:"name,attr"`
	Type         string    `xml:"type,attr"`
	PropertyType string    `xml:"propertytype,attr"`
	Value        *string   `xml:"value,attr"`
	Text         string    `xml:",chardata"` // multi-line strings
	Members      *xmlProps `xml:"properties"`
	Items        []xmlProp `xml:"item"` // a list's, which have no names
}

type xmlTileset struct {
	tilesetHead
	Image      *xmlImage `xml:"image"`
	Tiles      []xmlTile `xml:"tile"`
	Properties xmlProps  `xml:"properties"`
}

type xmlImage struct {
	Source string `xml:"source,attr"`
	Trans  string `xml:"trans,attr"`
	Width  int    `xml:"width,attr"`
	Height int    `xml:"height,attr"`
}

type xmlTile struct {
	tileHead
	Image     *xmlImage `xml:"image"`
	Animation struct {
		Frames []struct {
			TileID   int `xml:"tileid,attr"`
			Duration int `xml:"duration,attr"`
		} `xml:"frame"`
	} `xml:"animation"`
	ObjectGroup *struct {
		Objects []xmlObject `xml:"object"`
	} `xml:"objectgroup"`
	Properties xmlProps `xml:"properties"`
}

// xmlLayer is any of the four layer elements; XMLName says which.
type xmlLayer struct {
	XMLName xml.Name
	layerHead
	Visible    *int     `xml:"visible,attr"`
	Locked     int      `xml:"locked,attr"`
	Properties xmlProps `xml:"properties"`
	// tile layers
	Data *xmlData `xml:"data"`
	// object layers
	Objects []xmlObject `xml:"object"`
	// image layers
	Image   *xmlImage `xml:"image"`
	RepeatX int       `xml:"repeatx,attr"`
	RepeatY int       `xml:"repeaty,attr"`
	// groups
	Layers []xmlLayer `xml:",any"`
}

type xmlData struct {
	Encoding    string       `xml:"encoding,attr"`
	Compression string       `xml:"compression,attr"`
	Text        string       `xml:",chardata"`
	Tiles       []xmlTileGID `xml:"tile"`
	Chunks      []struct {
		X      int          `xml:"x,attr"`
		Y      int          `xml:"y,attr"`
		Width  int          `xml:"width,attr"`
		Height int          `xml:"height,attr"`
		Text   string       `xml:",chardata"`
		Tiles  []xmlTileGID `xml:"tile"`
	} `xml:"chunk"`
}

type xmlTileGID struct {
	GID uint32 `xml:"gid,attr"`
}

type xmlObject struct {
	ID int `xml:"id,attr"`
	// Pointers: an object made from a template holds only the attributes
	// it overrides.
	Name     *string    `xml:"name,attr"`
	Class    *string    `xml:"class,attr"`
	Type     *string    `xml:"type,attr"`
	X        float32    `xml:"x,attr"`
	Y        float32    `xml:"y,attr"`
	Width    *float32   `xml:"width,attr"`
	Height   *float32   `xml:"height,attr"`
	Rotation *float32   `xml:"rotation,attr"`
	GID      *uint32    `xml:"gid,attr"`
	Visible  *int       `xml:"visible,attr"`
	Template string     `xml:"template,attr"`
	Ellipse  *struct{}  `xml:"ellipse"`
	Point    *struct{}  `xml:"point"`
	Polygon  *xmlPoints `xml:"polygon"`
	Polyline *xmlPoints `xml:"polyline"`
	Text     *struct {
		Text string `xml:",chardata"`
	} `xml:"text"`
	Properties xmlProps `xml:"properties"`
}

type xmlPoints struct {
	Points string `xml:"points,attr"`
}

func xmlErr(kind string, err error) error {
	return media.Detail(media.ErrCorrupt, "not a well-formed %s: %v", kind, err)
}

func (ld *loader) decodeTMX(name string, b []byte) (*Map, error) {
	var x xmlMap
	if err := xml.NewDecoder(bytes.NewReader(b)).Decode(&x); err != nil {
		return nil, xmlErr(".tmx map", err)
	}
	if err := checkOrientation(x.Orientation); err != nil {
		return nil, err
	}
	m := &Map{
		Path: name, Class: first(x.Class, x.Type), RenderOrder: first(x.RenderOrder, "right-down"),
		Width: x.Width, Height: x.Height, TileWidth: x.TileWidth, TileHeight: x.TileHeight,
		Infinite: x.Infinite != 0, ParallaxOrigin: geom.V(x.ParallaxOriginX, x.ParallaxOriginY),
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
	if m.Properties, err = xmlProperties(x.Properties, "map"); err != nil {
		return nil, err
	}
	if m.Tilesets, err = readTilesets(ld, name, x.Tilesets, func(x *xmlTileset) *tilesetHead { return &x.tilesetHead }, tilesetFromXML); err != nil {
		return nil, err
	}
	if err := m.checkTilesets(); err != nil {
		return nil, err
	}
	ld.m = m // templates map their GIDs to the map's tilesets
	if m.Layers, err = ld.xmlLayers(name, x.Layers, m.Infinite); err != nil {
		return nil, err
	}
	return m, nil
}

func (ld *loader) decodeTSX(name string, b []byte) (*Tileset, error) {
	var x struct {
		XMLName xml.Name `xml:"tileset"`
		xmlTileset
	}
	if err := xml.NewDecoder(bytes.NewReader(b)).Decode(&x); err != nil {
		return nil, xmlErr(".tsx tileset", err)
	}
	return tilesetFromXML(name, &x.xmlTileset)
}

func tilesetFromXML(file string, x *xmlTileset) (*Tileset, error) {
	ts := x.tileset()
	var err error
	if x.Image != nil {
		if ts.Image, err = imageOf(file, x.Image.Source, x.Image.Trans, x.Image.Width, x.Image.Height); err != nil {
			return nil, err
		}
	}
	if ts.Properties, err = xmlProperties(x.Properties, "tileset"); err != nil {
		return nil, err
	}
	for i := range x.Tiles {
		xt := &x.Tiles[i]
		t := xt.tile()
		if xt.Image != nil {
			if t.Image, err = imageOf(file, xt.Image.Source, xt.Image.Trans, xt.Image.Width, xt.Image.Height); err != nil {
				return nil, fmt.Errorf("tile %d: %w", xt.ID, err)
			}
		}
		for _, f := range xt.Animation.Frames {
			t.Animation = append(t.Animation, Frame{TileID: f.TileID, Duration: time.Duration(f.Duration) * time.Millisecond})
		}
		if xt.ObjectGroup != nil {
			t.Objects, err = shapes(xt.ObjectGroup.Objects, func(x *xmlObject) (Object, objectSet, error) { return objectFromXML(file, x) })
			if err != nil {
				return nil, fmt.Errorf("tile %d: %w", xt.ID, err)
			}
		}
		if t.Properties, err = xmlProperties(xt.Properties, fmt.Sprintf("tile %d", xt.ID)); err != nil {
			return nil, err
		}
		ts.Tiles = append(ts.Tiles, t)
	}
	if err := ts.finish(); err != nil {
		return nil, err
	}
	return ts, nil
}

func (ld *loader) xmlLayers(file string, xs []xmlLayer, infinite bool) ([]Layer, error) {
	var out []Layer
	for i := range xs {
		x := &xs[i]
		var l Layer
		l.defaults()
		switch x.XMLName.Local {
		case "layer":
			l.Kind = TileLayer
		case "objectgroup":
			l.Kind = ObjectLayer
		case "imagelayer":
			l.Kind = ImageLayer
		case "group":
			l.Kind = GroupLayer
		default:
			continue // editorsettings and elements of later Tiled versions
		}
		if x.Visible != nil {
			l.Visible = *x.Visible != 0
		}
		l.Locked = x.Locked != 0
		err := l.setHead(&x.layerHead, func() (Properties, error) { return xmlProperties(x.Properties, "layer") })
		if err == nil {
			switch l.Kind {
			case TileLayer:
				err = ld.xmlTiles(&l, x, infinite)
			case ObjectLayer:
				for j := 0; j < len(x.Objects) && err == nil; j++ {
					o, set, e := objectFromXML(file, &x.Objects[j])
					if err = e; err == nil {
						o, err = ld.instance(file, o, set)
					}
					l.Objects = append(l.Objects, o)
				}
			case ImageLayer:
				l.RepeatX, l.RepeatY = x.RepeatX != 0, x.RepeatY != 0
				if x.Image != nil {
					l.Image, err = imageOf(file, x.Image.Source, x.Image.Trans, x.Image.Width, x.Image.Height)
				}
			case GroupLayer:
				l.Layers, err = ld.xmlLayers(file, x.Layers, infinite)
				if err != nil {
					return nil, err // already names the inner layer
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

func (ld *loader) xmlTiles(l *Layer, x *xmlLayer, infinite bool) error {
	d := x.Data
	if d == nil {
		return grid(l, x.Width, x.Height, nil, nil, ld.opts.maxTiles())
	}
	raw := func(text string, tiles []xmlTileGID) rawData {
		r := rawData{encoding: d.Encoding, compression: d.Compression, text: text}
		if d.Encoding == "" && (len(tiles) > 0 || strings.TrimSpace(text) == "") {
			r.numbers = true
			r.gids = make([]GID, len(tiles))
			for i, t := range tiles {
				r.gids[i] = GID(t.GID)
			}
		}
		return r
	}
	if len(d.Chunks) > 0 {
		if !infinite {
			return media.Detail(media.ErrCorrupt, "chunks in a map that is not infinite (want chunks only with infinite=\"1\")")
		}
		chunks := make([]rawChunk, len(d.Chunks))
		for i, c := range d.Chunks {
			chunks[i] = rawChunk{x: c.X, y: c.Y, w: c.Width, h: c.Height, data: raw(c.Text, c.Tiles)}
		}
		return grid(l, x.Width, x.Height, nil, chunks, ld.opts.maxTiles())
	}
	r := raw(d.Text, d.Tiles)
	return grid(l, x.Width, x.Height, &r, nil, ld.opts.maxTiles())
}

func objectFromXML(file string, x *xmlObject) (Object, objectSet, error) {
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
		o.Visible, set = *x.Visible != 0, set|setVisible
	}
	var err error
	set |= setShape
	switch {
	case o.GID != 0:
		o.Shape = TileObject
	case x.Point != nil:
		o.Shape = Point
	case x.Ellipse != nil:
		o.Shape = Ellipse
	case x.Polygon != nil:
		o.Shape = Polygon
		o.Points, err = parsePoints(x.Polygon.Points)
	case x.Polyline != nil:
		o.Shape = Polyline
		o.Points, err = parsePoints(x.Polyline.Points)
	case x.Text != nil:
		o.Shape, o.Text = TextObject, x.Text.Text
	default:
		set &^= setShape
	}
	if err != nil {
		return o, set, fmt.Errorf("object %d: %w", x.ID, err)
	}
	o.Properties, err = xmlProperties(x.Properties, fmt.Sprintf("object %d", x.ID))
	return o, set, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// parsePoints reads "x,y x,y ...".
func parsePoints(s string) ([]geom.Vec2, error) {
	fields := strings.Fields(s)
	ps := make([]geom.Vec2, 0, len(fields))
	for _, f := range fields {
		xs, ys, ok := strings.Cut(f, ",")
		x, err1 := strconv.ParseFloat(xs, 32)
		y, err2 := strconv.ParseFloat(ys, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, media.Detail(media.ErrCorrupt, "point %q, want x,y numbers", clip(f))
		}
		ps = append(ps, geom.V(float32(x), float32(y)))
	}
	return ps, nil
}

func xmlProperties(x xmlProps, owner string) (Properties, error) {
	if len(x.List) == 0 {
		return nil, nil
	}
	ps := make(Properties, 0, len(x.List))
	for i := range x.List {
		p, err := xmlValue(&x.List[i], owner)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	ps.sort()
	return ps, nil
}

// xmlValue reads one property, or one item of a list property.
func xmlValue(xp *xmlProp, owner string) (Property, error) {
	t, ok := parsePropertyType(xp.Type)
	if !ok {
		return Property{}, media.Detail(media.ErrCorrupt, "%s: property %q has type %q, want %s", owner, xp.Name, clip(xp.Type), propTypesAllowed)
	}
	p := Property{Name: xp.Name, Type: t, CustomType: xp.PropertyType}
	if xp.Value != nil {
		p.Value = *xp.Value
	} else if t != ClassProperty && t != ListProperty {
		p.Value = xp.Text
	}
	if t == ClassProperty && xp.Members != nil {
		var err error
		if p.Members, err = xmlProperties(*xp.Members, owner+": property "+strconv.Quote(xp.Name)); err != nil {
			return Property{}, err
		}
	}
	if t == ListProperty {
		p.Value = ""
		for i := range xp.Items {
			item, err := xmlValue(&xp.Items[i], fmt.Sprintf("%s: property %q item %d", owner, xp.Name, i))
			if err != nil {
				return Property{}, err
			}
			p.Members = append(p.Members, item)
		}
	}
	if err := checkValue(&p); err != nil {
		return Property{}, fmt.Errorf("%s: %w", owner, err)
	}
	return p, nil
}

// checkValue refuses a typed property whose text is not of its type.
func checkValue(p *Property) error {
	bad := func(want string) error {
		return media.Detail(media.ErrCorrupt, "%s property %q is %q, want %s", p.Type, p.Name, clip(p.Value), want)
	}
	switch p.Type {
	case IntProperty, ObjectProperty:
		if p.Value == "" && p.Type == ObjectProperty {
			p.Value = "0"
		}
		if _, err := strconv.ParseInt(p.Value, 10, 64); err != nil {
			return bad("an integer")
		}
	case FloatProperty:
		if _, err := strconv.ParseFloat(p.Value, 64); err != nil {
			return bad("a number")
		}
	case BoolProperty:
		if p.Value != "true" && p.Value != "false" {
			return bad("true or false")
		}
	case ColorProperty:
		if p.Value == "" {
			return nil // Tiled writes an unset colour as empty
		}
		c, ok := parseColor(p.Value)
		if !ok {
			return bad(`"#AARRGGBB" or "#RRGGBB"`)
		}
		p.Value = formatColor(c)
	}
	return nil
}

func imageOf(file, source, trans string, w, h int) (Image, error) {
	img := Image{Width: w, Height: h}
	if w < 0 || h < 0 {
		return img, media.Detail(media.ErrCorrupt, "image %q is %dx%d, want sizes of 0 or more", source, w, h)
	}
	var err error
	if img.Source, err = resolve(file, source); err != nil {
		return img, err
	}
	if trans != "" {
		if img.Trans, err = colorAttr("image trans", trans); err != nil {
			return img, err
		}
		img.HasTrans = true
	}
	return img, nil
}

func colorAttr(what, s string) (render2d.Color, error) {
	c, ok := parseColor(s)
	if !ok {
		return c, media.Detail(media.ErrCorrupt, "%s is %q, want \"#AARRGGBB\" or \"#RRGGBB\"", what, clip(s))
	}
	return c, nil
}

// readTilesets reads a map's tilesets in either format: head gives each
// one's shared attributes, and embedded reads one held in the map itself.
func readTilesets[T any](ld *loader, name string, xs []T, head func(*T) *tilesetHead, embedded func(string, *T) (*Tileset, error)) ([]*Tileset, error) {
	var out []*Tileset
	for i := range xs {
		h := head(&xs[i])
		var ts *Tileset
		var err error
		if h.Source != "" {
			ts, err = ld.external(name, h.Source, h.FirstGID)
		} else {
			ts, err = embedded(name, &xs[i])
			if err != nil {
				err = fmt.Errorf("tileset %q (firstgid %d): %w", h.Name, h.FirstGID, err)
			} else {
				ts.FirstGID = h.FirstGID
			}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ts)
	}
	return out, nil
}

// tilesetHead is what a tileset says of itself in the same words in both
// formats; xmlTileset and jsonTileset embed it.
type tilesetHead struct {
	FirstGID        uint32 `xml:"firstgid,attr" json:"firstgid"`
	Source          string `xml:"source,attr" json:"source"`
	Name            string `xml:"name,attr" json:"name"`
	Class           string `xml:"class,attr" json:"class"`
	TileWidth       int    `xml:"tilewidth,attr" json:"tilewidth"`
	TileHeight      int    `xml:"tileheight,attr" json:"tileheight"`
	Spacing         int    `xml:"spacing,attr" json:"spacing"`
	Margin          int    `xml:"margin,attr" json:"margin"`
	TileCount       int    `xml:"tilecount,attr" json:"tilecount"`
	Columns         int    `xml:"columns,attr" json:"columns"`
	ObjectAlignment string `xml:"objectalignment,attr" json:"objectalignment"`
	TileOffset      struct {
		X float32 `xml:"x,attr" json:"x"`
		Y float32 `xml:"y,attr" json:"y"`
	} `xml:"tileoffset" json:"tileoffset"`
}

// tileset returns the tileset h describes, without its image and tiles.
func (h *tilesetHead) tileset() *Tileset {
	return &Tileset{
		Name: h.Name, Class: h.Class, TileWidth: h.TileWidth, TileHeight: h.TileHeight,
		Spacing: h.Spacing, Margin: h.Margin, TileCount: h.TileCount, Columns: h.Columns,
		TileOffset:      geom.V(h.TileOffset.X, h.TileOffset.Y),
		ObjectAlignment: first(h.ObjectAlignment, "unspecified"),
	}
}

// tileHead is what a tile says of itself in the same words in both
// formats; xmlTile and jsonTile embed it.
type tileHead struct {
	ID          int      `xml:"id,attr" json:"id"`
	Class       string   `xml:"class,attr" json:"class"`
	Type        string   `xml:"type,attr" json:"type"`
	Probability *float32 `xml:"probability,attr" json:"probability"`
	X           float32  `xml:"x,attr" json:"x"`
	Y           float32  `xml:"y,attr" json:"y"`
	Width       float32  `xml:"width,attr" json:"width"`
	Height      float32  `xml:"height,attr" json:"height"`
}

// tile returns the tile h describes, without its image, animation,
// shapes and properties.
func (h *tileHead) tile() Tile {
	t := Tile{ID: h.ID, Class: first(h.Class, h.Type), Probability: 1, Rect: geom.R(h.X, h.Y, h.Width, h.Height)}
	if h.Probability != nil {
		t.Probability = *h.Probability
	}
	return t
}

// shapes reads a tile's collision shapes with from, the format's object
// reader; a template there is refused, as Tiled makes none.
func shapes[T any](xs []T, from func(*T) (Object, objectSet, error)) ([]Object, error) {
	var out []Object
	for j := range xs {
		o, _, err := from(&xs[j])
		if err == nil && o.Template != "" {
			err = media.Detail(media.ErrUnsupported, "object %d: a template in a tile's collision shapes (want plain shapes)", o.ID)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// layerHead is what a layer says of itself in the same words in both
// formats; xmlLayer and jsonLayer embed it, so setHead reads it once.
type layerHead struct {
	ID        int      `xml:"id,attr" json:"id"`
	Name      string   `xml:"name,attr" json:"name"`
	Class     string   `xml:"class,attr" json:"class"`
	Opacity   *float32 `xml:"opacity,attr" json:"opacity"`
	TintColor string   `xml:"tintcolor,attr" json:"tintcolor"`
	OffsetX   float32  `xml:"offsetx,attr" json:"offsetx"`
	OffsetY   float32  `xml:"offsety,attr" json:"offsety"`
	ParallaxX *float32 `xml:"parallaxx,attr" json:"parallaxx"`
	ParallaxY *float32 `xml:"parallaxy,attr" json:"parallaxy"`
	Width     int      `xml:"width,attr" json:"width"`
	Height    int      `xml:"height,attr" json:"height"`
	// object layers
	DrawOrder string `xml:"draworder,attr" json:"draworder"`
	Color     string `xml:"color,attr" json:"color"`
}

// setHead fills l (whose Kind is set) from h and props, checking the tint,
// the opacity, the properties and an object layer's colour in that order.
func (l *Layer) setHead(h *layerHead, props func() (Properties, error)) error {
	l.ID, l.Name, l.Class = h.ID, h.Name, h.Class
	if h.Opacity != nil {
		l.Opacity = *h.Opacity
	}
	l.Offset = geom.V(h.OffsetX, h.OffsetY)
	if h.ParallaxX != nil {
		l.Parallax.X = *h.ParallaxX
	}
	if h.ParallaxY != nil {
		l.Parallax.Y = *h.ParallaxY
	}
	if h.TintColor != "" {
		c, err := colorAttr("tintcolor", h.TintColor)
		if err != nil {
			return err
		}
		l.Tint = c
	}
	if !(l.Opacity >= 0 && l.Opacity <= 1) {
		return media.Detail(media.ErrCorrupt, "opacity %v, want 0 to 1", l.Opacity)
	}
	var err error
	if l.Properties, err = props(); err != nil {
		return err
	}
	if l.Kind == ObjectLayer {
		l.DrawOrder = first(h.DrawOrder, "topdown")
		if h.Color != "" {
			c, err := colorAttr("color", h.Color)
			if err != nil {
				return err
			}
			l.Color = c
		}
	}
	return nil
}

// finish sorts a tileset's tiles by ID and checks what the rest of the
// package relies on.
func (ts *Tileset) finish() error {
	if ts.TileWidth < 0 || ts.TileHeight < 0 || ts.Spacing < 0 || ts.Margin < 0 || ts.TileCount < 0 || ts.Columns < 0 {
		return media.Detail(media.ErrCorrupt, "tileset %q has a negative size, spacing, margin, count or column count, want 0 or more", ts.Name)
	}
	// Tiled before 0.9 wrote neither count nor columns: it derives them
	// from the image's size, as it still does on loading such a file.
	if ts.TileCount == 0 && ts.Columns == 0 && ts.Image.Source != "" && ts.TileWidth > 0 && ts.TileHeight > 0 {
		cols := max(ts.Image.Width-2*ts.Margin+ts.Spacing, 0) / (ts.TileWidth + ts.Spacing)
		rows := max(ts.Image.Height-2*ts.Margin+ts.Spacing, 0) / (ts.TileHeight + ts.Spacing)
		if cols > 1<<14 || rows > 1<<14 {
			return media.Detail(media.ErrCorrupt, "tileset %q: an image of %dx%d makes %dx%d tiles, want at most 16384 a side", ts.Name, ts.Image.Width, ts.Image.Height, cols, rows)
		}
		ts.Columns, ts.TileCount = cols, cols*rows
	}
	sortTiles(ts.Tiles)
	for i, t := range ts.Tiles {
		if t.ID < 0 || t.ID >= 1<<28 {
			return media.Detail(media.ErrCorrupt, "tileset %q: tile id %d, want 0 to 2^28-1", ts.Name, t.ID)
		}
		if i > 0 && ts.Tiles[i-1].ID == t.ID {
			return media.Detail(media.ErrCorrupt, "tileset %q: tile id %d appears twice", ts.Name, t.ID)
		}
		for _, f := range t.Animation {
			if f.TileID < 0 || f.TileID >= max(ts.span(), 1) || f.Duration < 0 {
				return media.Detail(media.ErrCorrupt, "tileset %q: tile %d animates to tile %d for %v, want a tile of the tileset (0 to %d) and a duration of 0 or more", ts.Name, t.ID, f.TileID, f.Duration, ts.span()-1)
			}
		}
	}
	return nil
}

func sortTiles(ts []Tile) {
	slices.SortStableFunc(ts, func(a, b Tile) int { return cmp.Compare(a.ID, b.ID) })
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
