"""rag's messages in English: the command line's lines and the errors the library raises.

Same keys and `{placeholders}` as rag/i18n/fr/ (a test checks it). Commands, flags, paths, variable and
attribute names stay as they are inside a message.

One module a stage; `merge` refuses a key defined twice.
"""

from rag.i18n import merge
from rag.i18n.en import cli, cli_help, sources, embeddings, index, answer, evaluate, journal

TEXT: dict[str, str] = merge(
    cli.TEXT, cli_help.TEXT, sources.TEXT, embeddings.TEXT, index.TEXT, answer.TEXT, evaluate.TEXT, journal.TEXT
)
