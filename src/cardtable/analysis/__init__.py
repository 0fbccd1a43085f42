"""Analysis at scale: solve or grade ranges of deals into a resumable results store, on
this machine's cores or a Dask cluster, and report the results as tables and plots.

The command line is ``cardtable analyze solve|grade|report`` (docs/analysis.md).

>>> from cardtable.analysis import TASKS
>>> TASKS
('solve', 'grade')
"""

from .jobs import Job, make_job, parse_deals, run_batch
from .results import TASKS, ResultStore, Row, RunKey, StoreError
from .runner import RunResult, run

__all__ = [
    "TASKS",
    "Job",
    "ResultStore",
    "Row",
    "RunKey",
    "RunResult",
    "StoreError",
    "make_job",
    "parse_deals",
    "run",
    "run_batch",
]
