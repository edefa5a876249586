package dev.cairn.pipeline;

import dev.cairn.kit.operator.KafkaOperatorTask;
import dev.cairn.kit.operator.KitTopicOutput;
import dev.cairn.kit.operator.OperatorFunction;
import dev.cairn.kit.operator.OperatorTaskConfig;
import dev.cairn.kit.operator.SinkOutput;
import dev.cairn.kit.sink.WriteAheadSinkConfig;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.kit.task.SourceFunction;
import dev.cairn.kit.task.SourceTaskConfig;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One subtask of the {@link PipelineTopology}, as the kit task its role names: in, the role, the subtask index and
 * the Kafka client settings; out, the {@link SnapshotHook} to hand the sidecar and what the worker's supervision
 * loop asks of it ({@link #failure()}, {@link #stopped}).
 */
public final class PipelineTask {

    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration SINK_TIMEOUT = Duration.ofMinutes(2);

    private final String role;
    private final KafkaSourceTask source;
    private final KafkaOperatorTask operator;

    private PipelineTask(String role, KafkaSourceTask source, KafkaOperatorTask operator) {
        this.role = role;
        this.source = source;
        this.operator = operator;
    }

    /**
     * The subtask {@code subtask} of {@code role} of {@code topology}, keeping its snapshots in
     * {@link SnapshotStorages#defaults()} (files, and S3 as the process's environment says).
     */
    public static PipelineTask create(PipelineTopology topology, String role, int subtask,
            Map<String, Object> clientConfig) {
        return create(topology, role, subtask, clientConfig, SnapshotStorages.defaults());
    }

    /**
     * The subtask {@code subtask} of {@code role} (source, count or sink) of {@code topology}. The sink's id, which
     * names its transactional ids, is {@code <job>.sink}: transactional ids are unique across the Kafka cluster, so
     * two pipeline jobs on one cluster do not fence each other.
     *
     * @param clientConfig {@code bootstrap.servers} and any other Kafka client settings
     * @param storage where the task writes and reads its snapshots (the caller closes it, after the task)
     * @throws IllegalArgumentException for an unknown role
     */
    public static PipelineTask create(PipelineTopology topology, String role, int subtask,
            Map<String, Object> clientConfig, SnapshotStorage storage) {
        return create(topology, role, subtask, PipelineTopology.Parallelism.DEFAULTS, clientConfig, storage);
    }

    /**
     * The subtask {@code subtask} of {@code role} (source, count or sink) of {@code topology} run with
     * {@code parallelism} subtasks per task; every task's max parallelism is
     * {@link PipelineTopology#MAX_PARALLELISM}, which the writers of its input route by. The sink's id, which
     * names its transactional ids, is {@code <job>.sink}: transactional ids are unique across the Kafka cluster, so
     * two pipeline jobs on one cluster do not fence each other.
     *
     * @param clientConfig {@code bootstrap.servers} and any other Kafka client settings
     * @param storage where the task writes and reads its snapshots (the caller closes it, after the task)
     * @throws IllegalArgumentException for an unknown role or a subtask beyond the role's parallelism
     */
    public static PipelineTask create(PipelineTopology topology, String role, int subtask,
            PipelineTopology.Parallelism parallelism, Map<String, Object> clientConfig, SnapshotStorage storage) {
        String task = role.toLowerCase(Locale.ROOT);
        int max = PipelineTopology.MAX_PARALLELISM;
        return switch (task) {
            case PipelineTopology.SOURCE -> new PipelineTask(task, new KafkaSourceTask(new SourceTaskConfig(task,
                    subtask, parallelism.source(), topology.eventsTopic(), topology.keyedTopic(), clientConfig,
                    SourceTaskConfig.StartFrom.EARLIEST, false, POLL, storage, max), SourceFunction.identity()), null);
            case PipelineTopology.COUNT -> new PipelineTask(task, null, new KafkaOperatorTask(
                    new OperatorTaskConfig(task, subtask, parallelism.count(), parallelism.source(),
                            topology.keyedTopic(), clientConfig, POLL, storage, max),
                    new RunningCount(), new KitTopicOutput(topology.countsTopic(), subtask, max, clientConfig)));
            case PipelineTopology.SINK -> new PipelineTask(task, null, new KafkaOperatorTask(
                    new OperatorTaskConfig(task, subtask, parallelism.sink(), parallelism.count(),
                            topology.countsTopic(), clientConfig, POLL, storage, max),
                    identity(), new SinkOutput(new WriteAheadSinkConfig(topology.jobId() + "." + task, subtask,
                            topology.resultsTopic(), clientConfig, SINK_TIMEOUT, storage))));
            default -> throw new IllegalArgumentException("unknown role \"" + role + "\"; a pipeline subtask is one "
                    + "of " + PipelineTopology.tasks());
        };
    }

    private static OperatorFunction identity() {
        return (key, value, state) -> List.of(new SourceFunction.Output(key, value));
    }

    /** The task id, as the job spec names it. */
    public String role() {
        return role;
    }

    /** What the sidecar drives. */
    public SnapshotHook hook() {
        return source != null ? source : operator;
    }

    /**
     * Why the task can no longer go on, if it cannot: its failure (a failed send, a task that is behind), or a loop
     * that ended without one and without a stop-with-savepoint.
     */
    public Optional<String> failure(Sidecar sidecar) {
        Optional<Throwable> failed = source != null ? source.failure() : operator.failure();
        if (failed.isPresent()) {
            return Optional.of(String.valueOf(failed.get().getMessage()).lines().findFirst().orElse("")
                    + " (" + failed.get().getClass().getSimpleName() + ")");
        }
        boolean running = source != null ? source.isRunning() : operator.isRunning();
        if (!running && !stopped(sidecar)) {
            return Optional.of(role + " stopped without a failure and without a stop-with-savepoint");
        }
        if (!sidecar.isRunning()) {
            return Optional.of("the sidecar stopped consuming control events"
                    + sidecar.stopReason().map(why -> ": " + why).orElse(""));
        }
        return Optional.empty();
    }

    /**
     * Whether a stop-with-savepoint completed and the task is done with it: a source once it or its sidecar knows
     * (it read nothing after the savepoint's barrier; with drain its input ended there), an operator once it has
     * handled the completion (a sink committed the savepoint's records).
     */
    public boolean stopped(Sidecar sidecar) {
        return source != null ? source.isStopped() || sidecar.isStopping() : operator.isStopped();
    }
}
