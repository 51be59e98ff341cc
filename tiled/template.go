package tiled

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"

	"github.com/metronome-go/metronome/media"
)

// objectSet says which of an object's attributes its file gave: an
// object made from a template holds only those it overrides.
type objectSet uint16

const (
	setName objectSet = 1 << iota
	setClass
	setWidth
	setHeight
	setRotation
	setGID
	setVisible
	setShape
)

// template is an object template (.tx or .tj file): an object, and the
// tileset its GID counts in.
type template struct {
	obj       Object
	tileset   string // the tileset's file, resolved; "" without one
	firstGID  uint32
	hasTiles  bool
	objectSet objectSet
}

// instance returns o, an object of a map's layer, with what its template
// gives for every attribute o does not override; o itself when it has no
// template. A template's tile is renumbered into the map's GIDs through
// the tileset file both name.
func (ld *loader) instance(file string, o Object, set objectSet) (Object, error) {
	if o.Template == "" {
		return o, nil
	}
	name, err := resolve(file, o.Template)
	if err != nil {
		return o, fmt.Errorf("object %d: template: %w", o.ID, err)
	}
	t, err := ld.template(name)
	if err != nil {
		return o, fmt.Errorf("object %d: template %s: %w", o.ID, name, err)
	}
	out := t.obj
	out.ID, out.X, out.Y, out.Template = o.ID, o.X, o.Y, name
	if set&setName != 0 {
		out.Name = o.Name
	}
	if set&setClass != 0 {
		out.Class = o.Class
	}
	if set&setWidth != 0 {
		out.Width = o.Width
	}
	if set&setHeight != 0 {
		out.Height = o.Height
	}
	if set&setRotation != 0 {
		out.Rotation = o.Rotation
	}
	if set&setVisible != 0 {
		out.Visible = o.Visible
	}
	if set&setGID != 0 {
		out.GID = o.GID // already in the map's numbering
	} else if out.GID.ID() != 0 {
		if out.GID, err = ld.mapGID(t, out.GID); err != nil {
			return o, fmt.Errorf("object %d: template %s: %w", o.ID, name, err)
		}
	}
	if out.GID.ID() != 0 {
		out.Shape = TileObject
	}
	// Properties: the template's, each replaced by the instance's of the
	// same name, plus the instance's own.
	if len(o.Properties) > 0 {
		merged := append(Properties(nil), o.Properties...)
		for _, p := range t.obj.Properties {
			if _, ok := o.Properties.Get(p.Name); !ok {
				merged = append(merged, p)
			}
		}
		merged.sort()
		out.Properties = merged
	}
	return out, nil
}

// mapGID renumbers a template's GID into the map's tileset of the same
// file.
func (ld *loader) mapGID(t *template, g GID) (GID, error) {
	if !t.hasTiles {
		return 0, media.Detail(media.ErrCorrupt, "a tile object with GID %d but no tileset", g.ID())
	}
	if ld.m != nil {
		for _, ts := range ld.m.Tilesets {
			if ts.Source == t.tileset {
				if g.ID() < t.firstGID {
					break
				}
				return GID(g.ID()-t.firstGID+ts.FirstGID) | g.Flags(), nil
			}
		}
	}
	return 0, media.Detail(media.ErrCorrupt, "its tile (GID %d) is from tileset %s, which the map does not use (want the map to list that tileset)", g.ID(), t.tileset)
}

// template reads the template file name (resolved), once.
func (ld *loader) template(name string) (*template, error) {
	if t, ok := ld.templates[name]; ok {
		return t, nil
	}
	b, err := fs.ReadFile(ld.fsys, name)
	if err != nil {
		return nil, err
	}
	var t template
	var src string
	switch sniff(b) {
	case '<':
		var x struct {
			XMLName xml.Name `xml:"template"`
			Tileset *struct {
				FirstGID uint32 `xml:"firstgid,attr"`
				Source   string `xml:"source,attr"`
			} `xml:"tileset"`
			Object *xmlObject `xml:"object"`
		}
		if err := xml.Unmarshal(b, &x); err != nil {
			return nil, xmlErr(".tx template", err)
		}
		if x.Object == nil {
			return nil, media.Detail(media.ErrCorrupt, "a template without an object")
		}
		if x.Tileset != nil {
			t.firstGID, src, t.hasTiles = x.Tileset.FirstGID, x.Tileset.Source, true
		}
		t.obj, t.objectSet, err = objectFromXML(name, x.Object)
	case '{':
		var x struct {
			Type    string `json:"type"`
			Tileset *struct {
				FirstGID uint32 `json:"firstgid"`
				Source   string `json:"source"`
			} `json:"tileset"`
			Object *jsonObject `json:"object"`
		}
		if err := json.Unmarshal(b, &x); err != nil {
			return nil, jsonErr(".tj template", err)
		}
		if x.Object == nil {
			return nil, media.Detail(media.ErrCorrupt, "a template without an object")
		}
		if x.Tileset != nil {
			t.firstGID, src, t.hasTiles = x.Tileset.FirstGID, x.Tileset.Source, true
		}
		t.obj, t.objectSet, err = objectFromJSON(x.Object)
	default:
		err = media.Detail(media.ErrCorrupt, "neither a .tx (XML) nor a .tj (JSON) template")
	}
	if err != nil {
		return nil, err
	}
	if t.obj.Template != "" {
		return nil, media.Detail(media.ErrCorrupt, "a template whose object names template %q (want an object of its own)", t.obj.Template)
	}
	if t.tileset, err = resolve(name, src); err != nil {
		return nil, err
	}
	if ld.templates == nil {
		ld.templates = map[string]*template{}
	}
	ld.templates[name] = &t
	return &t, nil
}
