"""How a refusal reads in logs: ``code(key=value, ...)``, or the bare code without params."""

from __future__ import annotations

from rules import CharacterDead, InvalidValue, RuleError


def test_refusal_text_lists_its_params_in_order() -> None:
    refusal = InvalidValue(field="health", min=-99, max=99)
    assert str(refusal) == "invalid_value(field='health', min=-99, max=99)"
    assert refusal.args == ("invalid_value(field='health', min=-99, max=99)",)


def test_refusal_text_with_one_param() -> None:
    assert str(RuleError(reason="x")) == "rule(reason='x')"


def test_H5_refusal_without_params_is_its_bare_code() -> None:
    assert str(CharacterDead()) == "dead"
    assert CharacterDead().params == {}
