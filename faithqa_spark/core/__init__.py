"""Pure-Python core of the pipeline: no pyspark import anywhere below this package.

Both the Spark job and the single-process reference runner call these functions, which is
what makes their outputs identical.
"""
