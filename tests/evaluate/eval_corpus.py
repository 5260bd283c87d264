"""A tiny corpus and question set shared by the evaluation tests (not a fixture module)."""

from __future__ import annotations

from rag.documents import Document

DOCS = [
    Document(
        url="kerberos.md",
        title="Vider le cache Kerberos",
        markdown=(
            "# Vider le cache Kerberos\n\n## La commande\n\n"
            "Sur un poste Windows, la commande klist purge efface les tickets Kerberos en cache. "
            "Reconnectez ensuite la session pour obtenir de nouveaux tickets.\n"
        ),
    ),
    Document(
        url="pktmon.md",
        title="Capture réseau avec pktmon",
        markdown=(
            "# Capture réseau avec pktmon\n\n## Lancer la capture\n\n"
            "Windows inclut pktmon : pktmon start --capture enregistre le trafic réseau sans "
            "installer de pilote. Arrêtez la capture avec pktmon stop.\n"
        ),
    ),
    Document(
        url="powershell.md",
        title="Politique d'exécution PowerShell",
        markdown=(
            "# Politique d'exécution PowerShell\n\n## Autoriser les scripts\n\n"
            "Pour exécuter des scripts locaux, la commande Set-ExecutionPolicy RemoteSigned "
            "autorise les scripts écrits sur la machine et bloque ceux téléchargés sans signature.\n"
        ),
    ),
    Document(
        url="laps.md",
        title="Windows LAPS",
        markdown=(
            "# Windows LAPS\n\n## Rotation du mot de passe\n\n"
            "Windows LAPS change automatiquement le mot de passe de l'administrateur local de "
            "chaque poste et le stocke dans Active Directory.\n"
        ),
    ),
]

QUESTIONS_JSONL = "\n".join(
    [
        '{"id": "q1", "question": "Comment effacer les tickets Kerberos en cache sur un poste ?", '
        '"expected_source": "kerberos.md", "expected_answer": "klist purge", "in_base": true, "category": "commande"}',
        '{"id": "q2", "question": "Comment capturer le trafic réseau sous Windows sans pilote ?", '
        '"expected_source": "pktmon.md", "expected_answer": "pktmon start --capture", "in_base": true}',
        '{"id": "q3", "question": "Comment autoriser les scripts PowerShell locaux ?", '
        '"expected_source": "powershell.md", "expected_answer": "Set-ExecutionPolicy RemoteSigned", "in_base": true}',
        '{"id": "q4", "question": "Qui change le mot de passe administrateur local des postes ?", '
        '"expected_source": "laps.md", "in_base": true, "also_in": ["kerberos.md"]}',
        '{"id": "o1", "question": "Quelle est la meilleure recette de pâte à crêpes ?", '
        '"expected_source": null, "in_base": false, "category": "hors base"}',
        '{"id": "o2", "question": "Quel itinéraire prendre pour visiter Lisbonne à vélo ?", '
        '"expected_source": null, "in_base": false, "category": "hors base"}',
    ]
) + "\n"


# A near-domain off-topic question the model's default floor lets through to the chat model: what
# calibrating a collection's threshold is for (its suggestion differs from the default).
NEAR_DOMAIN_JSONL = QUESTIONS_JSONL + (
    '{"id": "o3", "question": "Comment vider le cache DNS d\'un poste Windows ?", '
    '"expected_source": null, "in_base": false, "category": "hors base"}\n'
)


def build_collection(store, embedder, name: str, strategy: str = "sections") -> None:
    from rag.ingest.run import ingest

    report = ingest(list(DOCS), store, embedder, name, strategy=strategy)
    assert report.ok, report.summary()
