# Makes the Godot 3 fixtures of issue 41's regression tests with Godot 3.2.3:
#   godot3-server --no-window -s make_issue41_3.gd
# in a folder holding this script and a project.godot; it writes godot3/issue41/ there.
# font.tres: a DynamicFont whose font data is an external DynamicFontData (an
# `[ext_resource type="DynamicFontData"]`, a class Godot 4 calls FontFile).
extends SceneTree

func _init():
	Directory.new().make_dir_recursive("res://godot3/issue41")
	var data = DynamicFontData.new()
	data.font_path = "res://godot3/issue41/missing.ttf"
	ResourceSaver.save("res://godot3/issue41/font_data.tres", data)
	var font = DynamicFont.new()
	font.font_data = load("res://godot3/issue41/font_data.tres")
	font.size = 20
	ResourceSaver.save("res://godot3/issue41/font.tres", font)
	quit()
