package dev.cairn.bench.core;

import java.util.concurrent.ScheduledExecutorService;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.executiongraph.ExecutionGraph;
import org.apache.flink.runtime.executiongraph.ExecutionGraphTestUtils;
import org.apache.flink.runtime.executiongraph.ExecutionJobVertex;
import org.apache.flink.runtime.executiongraph.ExecutionVertex;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.testtasks.NoOpInvokable;

/**
 * A running Flink {@link ExecutionGraph} of one vertex (one operator) with a given parallelism, built with
 * Flink's test utilities (flink-runtime's test-jar) as Flink's own CheckpointCoordinator tests build theirs.
 * No slots are assigned, so trigger and notification messages to the tasks are no-ops.
 */
final class FlinkTestGraph implements AutoCloseable {

    private static final int MAX_PARALLELISM = 32_768;

    private final ScheduledExecutorService futures;
    private final ExecutionGraph graph;
    private final ExecutionJobVertex vertex;

    private FlinkTestGraph(ScheduledExecutorService futures, ExecutionGraph graph, ExecutionJobVertex vertex) {
        this.futures = futures;
        this.graph = graph;
        this.vertex = vertex;
    }

    /** The graph with every execution RUNNING. */
    static FlinkTestGraph running(int parallelism) {
        JobVertex jobVertex = new JobVertex("source", new JobVertexID());
        jobVertex.setParallelism(parallelism);
        jobVertex.setMaxParallelism(MAX_PARALLELISM);
        jobVertex.setInvokableClass(NoOpInvokable.class);
        ScheduledExecutorService futures = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            ExecutionGraph graph = ExecutionGraphTestUtils.createExecutionGraph(futures, jobVertex);
            graph.transitionToRunning();
            for (ExecutionVertex task : graph.getAllExecutionVertices()) {
                task.getCurrentExecutionAttempt().transitionState(ExecutionState.RUNNING);
            }
            return new FlinkTestGraph(futures, graph, graph.getJobVertex(jobVertex.getID()));
        } catch (Exception e) {
            futures.shutdownNow();
            throw new IllegalStateException("could not build a Flink execution graph of parallelism " + parallelism,
                    e);
        }
    }

    ExecutionGraph graph() {
        return graph;
    }

    /** The vertex's only operator. */
    OperatorID operator() {
        return vertex.getOperatorIDs().get(0).getGeneratedOperatorID();
    }

    /** The current attempt of every subtask, by subtask index. */
    ExecutionAttemptID[] attempts() {
        ExecutionVertex[] tasks = vertex.getTaskVertices();
        ExecutionAttemptID[] attempts = new ExecutionAttemptID[tasks.length];
        for (int subtask = 0; subtask < tasks.length; subtask++) {
            attempts[subtask] = tasks[subtask].getCurrentExecutionAttempt().getAttemptId();
        }
        return attempts;
    }

    @Override
    public void close() {
        futures.shutdownNow();
    }
}
