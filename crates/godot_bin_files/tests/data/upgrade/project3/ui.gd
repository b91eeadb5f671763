extends Control

func _on_pressed():
	pass

func _on_text_entered(_t):
	pass
