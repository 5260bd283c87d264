"""Les messages de rag en français : les lignes de la ligne de commande et les erreurs de la bibliothèque.

Mêmes clés et mêmes `{placeholders}` que rag/i18n/en/ (un test le vérifie). Commandes, options, chemins,
noms de variables et d'attributs restent tels quels dans un message.

Un module par étape ; `merge` refuse une clé définie deux fois.
"""

from rag.i18n import merge
from rag.i18n.fr import cli, cli_help, sources, embeddings, index, answer, evaluate, journal

TEXT: dict[str, str] = merge(
    cli.TEXT, cli_help.TEXT, sources.TEXT, embeddings.TEXT, index.TEXT, answer.TEXT, evaluate.TEXT, journal.TEXT
)
