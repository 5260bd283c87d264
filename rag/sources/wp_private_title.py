"""WordPress writes a private post's title as "Private: %s" in the site's language ("Privé : %s" in
French), in its REST API too: a mark of the theme, not part of the title. The formats of the
languages WordPress 6.1 ships (Debian's wordpress-l10n), unescaped and with spaces collapsed as the
source collapses a title's."""

from __future__ import annotations

PREFIXES: tuple[str, ...] = (
    'Binafsi:', 'Magánjellegű:', 'Persendirian:', 'Preifat:', 'Pribadi:', 'Pribatua:', 'Privaatseid:',
    'Privado:', 'Privat:', 'Privata:', 'Private:', 'Privatno:', 'Privato:', 'Privé :', 'Privé:',
    'Privāts:', 'Prywatny:', 'Prìobhaideach:', 'Riêng tư:', 'Soukromý:', 'Súkromný obsah:', 'Vetjake:',
    'Yksityinen:', 'Zasebno:', 'Özel:', 'Απόρρητο:', 'Лична:', 'Личное:', 'Приватне:', 'Приватно:',
    'Приватное:', 'פרטי:', 'تایبەتی:', 'خاص:', 'خصوصی:', 'شەخسىي:', 'ব্যক্তিগত:', 'පුද්ගලික:',
    'ส่วนตัว:', 'ကိုယ်ပိုင်သီးသန့်။ :', 'პირადი:', '不公開:', '私密：', '非公開:', '개인글:',
)


def without_private_prefix(title: str) -> str:
    """`title` without WordPress's "Private: " mark in any of its languages (one, at the start)."""
    for prefix in PREFIXES:
        if title.startswith(prefix) and len(title) > len(prefix):
            return title[len(prefix):].strip() or title
    return title
