// Package render2d describes 2D frames as plain values and hands them from
// the simulation to the renderer.
//
// # Frames and packets
//
// A [Frame] is a list of [Pass] values drawn in order. A pass carries copied
// camera values ([Camera]), a target (the window or an offscreen
// [TargetHandle]), an optional clear colour, free parameters for materials,
// and an ordered list of [DrawPacket2D]: one textured quad each, with its
// texture handle and generation, source rectangle, [Transform], size, tint,
// [BlendMode], material and layer. Nothing in a frame points into game
// state, so the renderer can draw it while the simulation moves on.
// Positions, sizes and rectangles are package geom's [geom.Vec2] and
// [geom.Rect], the same values the game computes with: geom sits below
// render2d and owns them because it owns their methods.
//
// A packet whose [DrawPacket2D.Mesh] is set is a shape instead of a quad:
// it names triangles of its pass's [Pass.Vertices] and [Pass.Indices], in
// the shape's own units, and its Transform, Tint and Prev place, colour
// and interpolate them as for a sprite, so shapes sort with sprites by
// layer and move smoothly between updates. Package render2d/shape
// tessellates lines, polygons, circles and the rest into such meshes on
// the side that prepares the frame; renderers only place and colour the
// vertices, and draw a run of consecutive shapes with one call.
//
// # Writing frames
//
// A [FrameWriter] is lent to the game while it prepares a frame. It reuses
// the storage of the slot it writes into: once a game's frames stop
// growing, preparing them allocates nothing.
//
//	w, ok := slots.Begin()
//	if ok {
//		pw := w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black})
//		pw.Draw(render2d.Sprite(tex, geom.Rect{}, geom.Vec2{X: 10, Y: 20}, geom.Vec2{X: 32, Y: 32}))
//		slots.Publish(w)
//	}
//
// # Interpolation
//
// Presentation is decoupled from updates: the platform presents at its own
// cadence and draws the newest frame again at every present. So that
// motion stays smooth between updates, each packet carries its previous
// placement as well as its current one ([DrawPacket2D.Prev], a
// [Placement]: position, rotation, scale, tint), and each pass its
// camera's ([PassDesc.PrevCamera]). A frame records the real time of the
// update it shows ([Frame.Span], set by the runtime when it publishes),
// and right before every Render the platform sets [Frame.Present] to the
// instant and alpha of that present ([Frame.PresentAt] computes the alpha
// from the span: the frame is shown one step late, so alpha runs from 0
// at the update's end to 1 a step later). Renderers draw every placement
// at [Lerp] of previous and current by that alpha, rotations the shorter
// way round ([LerpAngle]); [DrawPacket2D.Resolved],
// [PassDesc.ResolvedCamera] and [Frame.Resolved] compute what is drawn.
// Nothing matches packets between frames.
//
// The zero Prev and PrevCamera are unset, and an unset placement is drawn
// where the packet or camera is now, at every alpha: hand-built frames and
// games that never interpolate are unaffected.
//
//	p := render2d.Sprite(tex, geom.Rect{}, now, size)
//	p.Prev = render2d.Placement{Position: before, Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
//	pw.Draw(p)
//	// runtime, at publication:  w.Frame().Span = render2d.Span{Start: u.Start, End: u.End, Step: step}
//	// platform, every present:  f.PresentAt(now); renderer.Render(f)
//
// # Screens and cameras
//
// A [Camera] maps world units to its pass's viewport; [Camera.WorldToTarget]
// and [Camera.TargetToWorld] compute that mapping the way renderers draw
// it, for picking what lies under the cursor. A camera with a
// [Camera.Size] shows a view of that many units stretched over its
// viewport: a logical resolution. [Screen] describes a window's logical
// screen (its size, a [Scaling] mode: letterbox, integer, stretch or
// resize) and its clear colour, and [Screen.Layout] places it in the
// framebuffer of the moment, centred with bars around it:
//
//	l := render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger}.Layout(fbW, fbH, winW, winH)
//	w.SetClear(barColour) // the whole window, before the passes
//	w.BeginPass(render2d.PassDesc{Camera: render2d.Camera{Viewport: l.Place(geom.Rect{}), Size: l.Size}})
//
// A pass's own clear covers its viewport only; [Frame.Clear] covers the
// whole window, so the bars have a colour.
//
// # Slots
//
// [Slots] implements frame publication: one slot in [Sequential] mode,
// three in [Concurrent] mode (one rendered, one newest complete, one in
// preparation). The simulation never waits: [Slots.Begin] reports false
// when no slot is free and the frame is skipped. The graphics thread calls
// [Slots.Acquire] to claim the newest complete frame; frames that leave use
// are recycled there, through the [SlotOptions.Release] hook, so handles
// they held are released where the graphics context is current.
//
// # Renderers
//
// [Renderer] is implemented by the OpenGL 4.1 renderer in
// render2d/glrender and by the recording renderer in render2d/rendertest,
// which also holds the conformance suite both pass. Every Renderer method
// runs on the graphics thread. Consecutive packets that share a [BatchKey]
// form a [Batch]; [AppendBatches] computes them, and the GL renderer draws
// each batch with one instanced draw call.
package render2d
