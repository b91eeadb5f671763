# The engine's own load time of a project's scenes and resources (issue 50 item 2).
# Run by project_engine.sh on a copy of the project (see there); by hand:
#   godot4 --headless --path PROJECT -s project_engine.gd -- PASSES [deep] [errors]
# Lists every .tscn, .tres, .scn and .res under res:// (the documents a project keeps),
# skipping .godot/ (the editor's import cache: engine output, not the project's files),
# every hidden folder (the editor does not show them) and folders holding .gdignore (the
# editor does not import them). Each pass loads every listed file with
# ResourceLoader.load(path, "", mode), timed with Time.get_ticks_usec() (loads only).
# Pass 1 is "cold": the first load in this process, dependencies (scripts, textures, other
# scenes) loaded for the first time. Passes 2.. are "warm".
# mode CACHE_MODE_IGNORE (default): the listed file is parsed anew every time, its
# ext_resources are taken from the cache (pass 1's results are kept alive so that they stay
# there), so a warm pass parses each listed file once; a dependency that failed to load is
# not cached and is tried again every pass. With "deep": CACHE_MODE_IGNORE_DEEP, every
# dependency is parsed anew too, so a pass parses more than the listed bytes. (4.4.1, checked
# on the engine: IGNORE twice gives two main resources sharing one cached dependency; DEEP
# gives the dependency anew; a dependency leaves the cache when its last user is freed.)
# The engine's error messages are muted during the passes (Engine.print_error_messages):
# a project without its scripts or imported assets makes the loader print thousands of
# them, and printing, not loading, would be timed; "errors" keeps them.
# MB = 1,000,000 bytes; MB/s = listed bytes / median warm pass.
extends SceneTree

const EXTS := ["tscn", "tres", "scn", "res"]


func list_files(dir: String, out: Array) -> void:
	if FileAccess.file_exists(dir.path_join(".gdignore")):
		return
	for name in DirAccess.get_directories_at(dir):
		if not name.begins_with("."):
			list_files(dir.path_join(name), out)
	for name in DirAccess.get_files_at(dir):
		if name.get_extension().to_lower() in EXTS:
			out.append(dir.path_join(name))


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	var passes := int(args[0]) if args.size() > 0 else 10
	var deep := "deep" in args
	Engine.print_error_messages = "errors" in args
	var mode := ResourceLoader.CACHE_MODE_IGNORE_DEEP if deep else ResourceLoader.CACHE_MODE_IGNORE
	var files: Array = []
	list_files("res://", files)
	files.sort()
	var bytes := 0
	var binary := 0
	for f in files:
		bytes += FileAccess.get_file_as_bytes(f).size()
		if f.get_extension().to_lower() in ["scn", "res"]:
			binary += 1
	print("PE files %d (binary .scn/.res %d) bytes %d mode %s" % [
		files.size(), binary, bytes, "CACHE_MODE_IGNORE_DEEP" if deep else "CACHE_MODE_IGNORE"])
	var kept: Array = []
	var failed: Array = []
	var warm: Array = []
	for p in range(1, passes + 1):
		var got: Array = []
		var t0 := Time.get_ticks_usec()
		for f in files:
			got.append(ResourceLoader.load(f, "", mode))
		var ms := (Time.get_ticks_usec() - t0) / 1000.0
		if p == 1:
			kept = got
			for i in files.size():
				if got[i] == null:
					failed.append(files[i])
		else:
			warm.append(ms)
		print("PE pass %d %s ms %.3f" % [p, "cold" if p == 1 else "warm", ms])
	if not warm.is_empty():
		warm.sort()
		var n := warm.size()
		var med: float = warm[n / 2] if n % 2 == 1 else (warm[n / 2 - 1] + warm[n / 2]) / 2.0
		print("PE warm median ms %.3f min %.3f max %.3f MB/s %.2f" % [
			med, warm[0], warm[n - 1], bytes / 1000.0 / med])
	print("PE failed %d" % failed.size())
	for f in failed:
		print("PE failed ", f)
	kept.clear()
	Engine.print_error_messages = true
	quit()
