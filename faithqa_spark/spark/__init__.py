"""The Spark side of the job, split by concern:

- `tasks`: mapInArrow task factories (picklable closures over plain data);
- `transforms`: lazy DataFrame -> DataFrame functions (no Spark action inside);
- `actions`: the explicit actions, each returning plain data to the driver;
- `ner_cache`: the Delta NER cache and the NER table;
- `outputs`: the output plan (persistence, write threads, Delta tables, exports, publishing);
- `session`, `worker_daemon`: the SparkSession and its local Python workers;
- `job`: `build_dataset`, the pipeline's stages; `main`: the spark-submit entry point.

Nothing is imported here: `worker_daemon` must run before pyspark is imported.
"""
