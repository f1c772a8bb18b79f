from kiwara_designer import FREE_PLAY, load_layout, validate


def test_classic_is_valid_free_play():
    assert validate(load_layout("classic"), FREE_PLAY).valid
