"""spark-submit entry point of the audit:

    spark-submit jobs/audit_dataset.py FILE_OR_DIR... --output DIR
"""

import sys

from faithqa_spark.audit_spark import main

if __name__ == "__main__":
    sys.exit(main())
