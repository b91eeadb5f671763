extends SceneTree
func _initialize():
	var r = ResourceLoader.load("res://Environment/simple_leaves/simple_leaves.tres.engine.res", "", ResourceLoader.CACHE_MODE_IGNORE)
	print("ROUGH ", var_to_str(r.roughness), " ", r.roughness)
	ResourceSaver.save(r, "res://probe_leaves.tres")
	var s = ResourceLoader.load("res://Box/Box.tscn.engine.scn", "", ResourceLoader.CACHE_MODE_IGNORE)
	ResourceSaver.save(s, "res://probe_box.tscn")
	quit()
