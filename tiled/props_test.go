package tiled_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/tiled"
)

// listTMX and listTMJ are maps with list properties (Tiled 1.12), written
// for this test in the form Tiled 1.12 saves: items of several types, a
// list of lists and an empty list.
const listTMX = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.12" tiledversion="1.12.0" orientation="orthogonal" width="1" height="1" tilewidth="16" tileheight="16" infinite="0">
 <properties>
  <property name="mixed" type="list">
   <item type="int" value="42"/>
   <item type="string" value="test"/>
   <item type="bool" value="true"/>
   <item type="color" value="#ff0000ff"/>
  </property>
  <property name="nested" type="list">
   <item type="list">
    <item type="int" value="1"/>
    <item type="int" value="2"/>
   </item>
   <item type="list">
    <item type="string" value="b"/>
    <item type="string" value="a"/>
   </item>
  </property>
  <property name="empty" type="list">
  </property>
 </properties>
 <layer id="1" name="ground" width="1" height="1"><data encoding="csv">0</data></layer>
</map>`

const listTMJ = `{"type":"map","version":"1.12","tiledversion":"1.12.0","orientation":"orthogonal","width":1,"height":1,"tilewidth":16,"tileheight":16,
 "properties":[
  {"name":"mixed","type":"list","value":[{"type":"int","value":42},{"type":"string","value":"test"},{"type":"bool","value":true},{"type":"color","value":"#ff0000ff"}]},
  {"name":"nested","type":"list","value":[{"type":"list","value":[{"type":"int","value":1},{"type":"int","value":2}]},{"type":"list","value":[{"type":"string","value":"b"},{"type":"string","value":"a"}]}]},
  {"name":"empty","type":"list","value":[]}],
 "layers":[{"type":"tilelayer","name":"ground","width":1,"height":1,"data":[0]}]}`

// TestListProperties reads list properties from both formats into the
// same items, in the file's order.
func TestListProperties(t *testing.T) {
	fsys := fstest.MapFS{"l.tmx": {Data: []byte(listTMX)}, "l.tmj": {Data: []byte(listTMJ)}}
	for _, name := range []string{"l.tmx", "l.tmj"} {
		m, err := tiled.Load(fsys, name, tiled.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := func(ps tiled.Properties) string {
			var b strings.Builder
			var walk func(ps tiled.Properties)
			walk = func(ps tiled.Properties) {
				for _, p := range ps {
					if p.Type == tiled.ListProperty {
						b.WriteString(p.Name + "[")
						walk(p.Members)
						b.WriteString("]")
						continue
					}
					b.WriteString(p.Type.String() + ":" + p.Value + " ")
				}
			}
			walk(ps)
			return b.String()
		}
		const want = "empty[]mixed[int:42 string:test bool:true color:#ff0000ff ]nested[[int:1 int:2 ][string:b string:a ]]"
		if got := text(m.Properties); got != want {
			t.Errorf("%s: properties %s, want %s", name, got, want)
		}
	}
}

func TestBadListProperty(t *testing.T) {
	for name, doc := range map[string]string{
		"bad.tmx": strings.Replace(listTMX, `<item type="int" value="42"/>`, `<item type="int" value="x"/>`, 1),
		"bad.tmj": strings.Replace(listTMJ, `"value":[]`, `"value":{}`, 1),
		"tp.tmx":  strings.Replace(listTMX, `<item type="int" value="42"/>`, `<item type="tuple" value="42"/>`, 1),
	} {
		_, err := tiled.Load(fstest.MapFS{name: {Data: []byte(doc)}}, name, tiled.Options{})
		want := map[string]string{
			"bad.tmx": `property "mixed" item 0: int property "" is "x", want an integer`,
			"bad.tmj": `list property "empty" is {}, want an array of items`,
			"tp.tmx":  `has type "tuple", want one of string, int, float, bool, color, file, object, class or list`,
		}[name]
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, want)
		}
	}
}
