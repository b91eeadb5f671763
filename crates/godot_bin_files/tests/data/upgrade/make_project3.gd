# Makes the Godot 3 test project of the upgrade tests (project3/), with Godot 3.2.3's own
# savers: run in an empty folder holding an empty project.godot,
#   godot3-server --no-window -s make_project3.gd
# and copy project.godot, ui.gd, *.tscn, *.tres, *.scn into project3/.
extends SceneTree

func own(node, owner):
	for c in node.get_children():
		if c.name.begins_with("@"):
			continue  # a control's own internal nodes (LineEdit's menu)
		c.owner = owner
		own(c, owner)

func save_scene(root, path, deep = true):
	if deep:
		own(root, root)
	var ps = PackedScene.new()
	ps.pack(root)
	var err = ResourceSaver.save(path, ps)
	if err != OK:
		printerr("save ", path, " ", err)

func _init():
	var f = File.new()
	f.open("res://ui.gd", File.WRITE)
	f.store_string("extends Control\n\nfunc _on_pressed():\n\tpass\n\nfunc _on_text_entered(_t):\n\tpass\n")
	f.close()

	# ui.tscn: Controls with margins, rect_*, theme overrides, alignments; an
	# AnimationPlayer with an animation of renamed properties; connections.
	var ui = Control.new()
	ui.name = "UI"
	ui.set_script(load("res://ui.gd"))
	ui.anchor_right = 1
	ui.anchor_bottom = 1
	var label = Label.new()
	label.name = "Label"
	ui.add_child(label)
	label.margin_left = 10
	label.margin_top = 20
	label.margin_right = 110
	label.margin_bottom = 44
	label.text = "Hello"
	label.align = Label.ALIGN_CENTER
	label.valign = Label.VALIGN_BOTTOM
	label.autowrap = true
	label.add_color_override("font_color", Color(1, 0, 0))
	label.add_color_override("font_color_shadow", Color(0, 0, 1))
	label.add_constant_override("shadow_offset_x", 3)
	label.rect_rotation = 30
	label.rect_scale = Vector2(2, 2)
	label.rect_pivot_offset = Vector2(5, 5)
	label.rect_min_size = Vector2(50, 10)
	label.rect_clip_content = true
	label.hint_tooltip = "tip"
	label.pause_mode = Node.PAUSE_MODE_PROCESS
	label.add_to_group("labels", true)
	label.set_meta("note", "kept")
	var anchored = Panel.new()
	anchored.name = "Anchored"
	ui.add_child(anchored)
	anchored.anchor_left = 0.5
	anchored.anchor_right = 1
	anchored.anchor_bottom = 0.5
	anchored.margin_left = -20
	anchored.margin_right = -8
	anchored.margin_top = 4
	anchored.margin_bottom = 30
	var button = Button.new()
	button.name = "Button"
	ui.add_child(button)
	button.text = "Go"
	button.align = Button.ALIGN_RIGHT
	button.toggle_mode = true
	button.pressed = true
	button.add_color_override("font_color_hover", Color(0, 1, 0))
	button.connect("pressed", ui, "_on_pressed", [], CONNECT_PERSIST)
	var edit = LineEdit.new()
	edit.name = "Edit"
	ui.add_child(edit)
	edit.align = LineEdit.ALIGN_CENTER
	edit.caret_blink_speed = 0.3
	edit.connect("text_entered", ui, "_on_text_entered", [], CONNECT_PERSIST)
	var box = VBoxContainer.new()
	box.name = "Box"
	ui.add_child(box)
	box.add_constant_override("separation", 7)
	var margins = MarginContainer.new()
	margins.name = "Margins"
	box.add_child(margins)
	margins.add_constant_override("margin_left", 12)
	margins.rect_min_size = Vector2(30, 30)
	var timer = Timer.new()
	timer.name = "Timer"
	ui.add_child(timer)
	timer.process_mode = Timer.TIMER_PROCESS_PHYSICS
	timer.wait_time = 2.5
	var player = AnimationPlayer.new()
	player.name = "Player"
	ui.add_child(player)
	var anim = Animation.new()
	anim.length = 2
	anim.loop = true
	var t = anim.add_track(Animation.TYPE_VALUE)
	anim.track_set_path(t, "Label:rect_position")
	anim.track_insert_key(t, 0, Vector2(0, 0))
	anim.track_insert_key(t, 1, Vector2(100, 50))
	t = anim.add_track(Animation.TYPE_VALUE)
	anim.track_set_path(t, "Label:rect_rotation")
	anim.track_insert_key(t, 0, 0.0)
	anim.track_insert_key(t, 1, 90.0)
	t = anim.add_track(Animation.TYPE_VALUE)
	anim.track_set_path(t, "Label:custom_colors/font_color")
	anim.track_insert_key(t, 0, Color(1, 1, 1))
	player.add_animation("move", anim)
	var blink = Animation.new()
	blink.length = 0.5
	t = blink.add_track(Animation.TYPE_VALUE)
	blink.track_set_path(t, "Button:visible")
	blink.value_track_set_update_mode(t, Animation.UPDATE_TRIGGER)
	blink.track_insert_key(t, 0, false)
	player.add_animation("blink", blink)
	player.autoplay = "move"
	player.playback_speed = 1.5
	save_scene(ui, "res://ui.tscn")

	# world.tscn: 2D and 3D nodes with renamed properties; also as world.scn (binary).
	var world = Node2D.new()
	world.name = "World"
	var ray = RayCast2D.new()
	ray.name = "Ray"
	world.add_child(ray)
	ray.cast_to = Vector2(0, 120)
	var body = StaticBody2D.new()
	body.name = "Body"
	world.add_child(body)
	var shape = CollisionShape2D.new()
	shape.name = "Shape"
	body.add_child(shape)
	var rect = RectangleShape2D.new()
	rect.extents = Vector2(16, 8)
	shape.shape = rect
	var shape2 = CollisionShape2D.new()
	shape2.name = "Capsule"
	body.add_child(shape2)
	var cap2 = CapsuleShape2D.new()
	cap2.radius = 5
	cap2.height = 10
	shape2.shape = cap2
	var cam = Camera2D.new()
	cam.name = "Camera"
	world.add_child(cam)
	cam.smoothing_enabled = true
	cam.smoothing_speed = 3
	cam.drag_margin_left = 0.1
	cam.process_mode = Camera2D.CAMERA2D_PROCESS_PHYSICS
	var sprite = Sprite.new()
	sprite.name = "Sprite"
	world.add_child(sprite)
	sprite.region_filter_clip = true
	sprite.position = Vector2(3, 4)
	var space = Spatial.new()
	space.name = "Space"
	world.add_child(space)
	space.translation = Vector3(1, 2, 3)
	var ray3 = RayCast.new()
	ray3.name = "Ray3"
	space.add_child(ray3)
	ray3.cast_to = Vector3(0, 0, -5)
	var sb = StaticBody.new()
	sb.name = "Static"
	space.add_child(sb)
	var cs = CollisionShape.new()
	cs.name = "Box"
	sb.add_child(cs)
	var bs = BoxShape.new()
	bs.extents = Vector3(1, 2, 3)
	cs.shape = bs
	var cs2 = CollisionShape.new()
	cs2.name = "DefaultBox"
	sb.add_child(cs2)
	cs2.shape = BoxShape.new()
	var cs3 = CollisionShape.new()
	cs3.name = "Capsule"
	sb.add_child(cs3)
	var cap = CapsuleShape.new()
	cap.height = 3
	cs3.shape = cap
	save_scene(world, "res://world.tscn")
	save_scene(world.duplicate(), "res://world.scn")

	# main.tscn: instances ui.tscn and overrides the instanced root's margins.
	var main = Node.new()
	main.name = "Main"
	var inst = load("res://ui.tscn").instance(PackedScene.GEN_EDIT_STATE_INSTANCE)
	main.add_child(inst)
	inst.margin_left = 40
	inst.margin_top = 16
	inst.owner = main
	save_scene(main, "res://main.tscn", false)

	# Resources: a StyleBoxTexture (its margins are texture margins in Godot 4) and a
	# ShortCut with a special key.
	var sbt = StyleBoxTexture.new()
	sbt.margin_left = 4
	sbt.margin_top = 6
	ResourceSaver.save("res://panel_style.tres", sbt)
	var sc = ShortCut.new()
	var ev = InputEventKey.new()
	ev.scancode = KEY_ESCAPE
	ev.control = true
	sc.shortcut = ev
	ResourceSaver.save("res://quit_shortcut.tres", sc)

	# project.godot: window size, an input map with keys and joypad buttons.
	ProjectSettings.set_setting("application/config/name", "Upgrade test")
	ProjectSettings.set_setting("application/run/main_scene", "res://main.tscn")
	ProjectSettings.set_setting("display/window/size/width", 800)
	ProjectSettings.set_setting("display/window/size/height", 480)
	ProjectSettings.set_setting("display/window/size/test_width", 400)
	var jump_key = InputEventKey.new()
	jump_key.scancode = KEY_SPACE
	var jump_pad = InputEventJoypadButton.new()
	jump_pad.button_index = JOY_XBOX_A
	var fire_pad = InputEventJoypadButton.new()
	fire_pad.button_index = JOY_R2
	var start_pad = InputEventJoypadButton.new()
	start_pad.button_index = JOY_START
	var quit_key = InputEventKey.new()
	quit_key.scancode = KEY_ESCAPE
	quit_key.shift = true
	ProjectSettings.set_setting("input/jump", {"deadzone": 0.5, "events": [jump_key, jump_pad]})
	ProjectSettings.set_setting("input/fire", {"deadzone": 0.5, "events": [fire_pad, start_pad]})
	ProjectSettings.set_setting("input/quit", {"deadzone": 0.5, "events": [quit_key]})
	ProjectSettings.save()
	quit()
