package dev.cairn.pipeline;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskVertex;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The sample pipeline of one job {@code <job>}: a running count per key, exactly once.
 *
 * <pre>
 * &lt;job&gt;.events --source x2 (identity)--&gt; &lt;job&gt;.keyed --count x2 (count per key)--&gt; &lt;job&gt;.counts
 *     --sink x2 (write-ahead sink)--&gt; &lt;job&gt;.results (+ &lt;job&gt;.results.commits, the sink's markers)
 * </pre>
 *
 * <p>In: the job id, where its checkpoints go and how often ({@link Checkpointing}). Out: the topic names,
 * partition counts and parallelisms every process of the pipeline agrees on, the Cairn {@link JobSpec} to register
 * (the source is triggered; count and sink are not, they acknowledge and are notified once the barriers reached
 * them), and the topics, created by {@link #createTopics}.
 *
 * @param jobId the job: letters, digits, '.', '_' and '-' (it prefixes the topic names)
 */
public record PipelineTopology(String jobId) {

    /** The source task: reads {@link #eventsTopic()}, writes {@link #keyedTopic()}. */
    public static final String SOURCE = "source";
    /** The count task: reads {@link #keyedTopic()}, writes {@link #countsTopic()}. */
    public static final String COUNT = "count";
    /** The sink task: reads {@link #countsTopic()}, commits to {@link #resultsTopic()}. */
    public static final String SINK = "sink";
    /** Subtasks of every task unless told otherwise ({@link Parallelism#DEFAULTS}). */
    public static final int PARALLELISM = 2;
    /**
     * The max parallelism of every task: its number of key groups, which the writers of a kit topic route by, and the
     * upper bound of its parallelism; fixed for the job's life.
     */
    public static final int MAX_PARALLELISM = 128;
    /** Partitions of every data topic (the sink's commits topic has one). */
    public static final int PARTITIONS = 4;
    /** How often the coordinator triggers a checkpoint. */
    public static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(500);
    /** How long a checkpoint may take before it is aborted. */
    public static final Duration CHECKPOINT_TIMEOUT = Duration.ofSeconds(20);

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Duration ADMIN_WAIT = Duration.ofSeconds(30);

    public PipelineTopology {
        Objects.requireNonNull(jobId, "jobId");
        if (!ID.matcher(jobId).matches()) {
            throw new IllegalArgumentException("a job id of the pipeline is made of letters, digits, '.', '_' and "
                    + "'-' (it prefixes topic names), was \"" + jobId + "\"");
        }
    }

    /**
     * How many subtasks each task runs: each 1 to {@link #MAX_PARALLELISM}. A job stopped with a savepoint goes on
     * with other parallelisms (a rescale): each new subtask restores the states its sidecar hands it.
     *
     * @param source subtasks of the source
     * @param count subtasks of the count
     * @param sink subtasks of the sink
     */
    public record Parallelism(int source, int count, int sink) {

        /** {@link #PARALLELISM} subtasks of every task. */
        public static final Parallelism DEFAULTS = new Parallelism(PARALLELISM, PARALLELISM, PARALLELISM);

        public Parallelism {
            for (int value : new int[] {source, count, sink}) {
                if (value < 1 || value > MAX_PARALLELISM) {
                    throw new IllegalArgumentException("a task of the pipeline runs 1 to " + MAX_PARALLELISM
                            + " subtasks, not " + value);
                }
            }
        }

        /** The subtasks of {@code role}. */
        public int of(String role) {
            return switch (role) {
                case SOURCE -> source;
                case COUNT -> count;
                case SINK -> sink;
                default -> throw new IllegalArgumentException("unknown role \"" + role + "\"; a pipeline subtask is "
                        + "one of " + tasks());
            };
        }

        /** The subtasks of the task that writes {@code role}'s input: the source's for count, count's for sink. */
        public int upstreamOf(String role) {
            return switch (role) {
                case SOURCE -> 0;
                case COUNT -> source;
                case SINK -> count;
                default -> of(role);
            };
        }
    }

    /** The tasks, in the order data flows. */
    public static List<String> tasks() {
        return List.of(SOURCE, COUNT, SINK);
    }

    /** The input: key = the event's key, value = anything. */
    public String eventsTopic() {
        return jobId + ".events";
    }

    /** The kit topic between source and count. */
    public String keyedTopic() {
        return jobId + ".keyed";
    }

    /** The kit topic between count and sink. */
    public String countsTopic() {
        return jobId + ".counts";
    }

    /** The output: key → its running count as decimal text, visible read_committed once a checkpoint completed. */
    public String resultsTopic() {
        return jobId + ".results";
    }

    /** The sink's commit markers (compacted). */
    public String commitsTopic() {
        return resultsTopic() + ".commits";
    }

    /** Every topic of the pipeline, as {@link #createTopics} creates them: the four data topics, then the commits. */
    public List<String> topics() {
        return List.of(eventsTopic(), keyedTopic(), countsTopic(), resultsTopic(), commitsTopic());
    }

    /**
     * How the job checkpoints: how often, how many completed checkpoints it retains, how many may be in flight at
     * once, and whether its checkpoints are FULL or INCREMENTAL (the kit's operators then write only the key groups
     * that changed, under {@code <base>/<job>/shared/}). Timeout {@link #CHECKPOINT_TIMEOUT}, exactly once.
     *
     * @param interval how often the coordinator triggers a checkpoint
     * @param retained how many completed checkpoints are kept (1 or more)
     * @param maxConcurrent how many checkpoints may be pending at once (1 or more)
     * @param backupType FULL or INCREMENTAL
     */
    public record Checkpointing(Duration interval, int retained, int maxConcurrent, BackupType backupType) {

        /** Every {@link #CHECKPOINT_INTERVAL}, one retained, one at a time, FULL. */
        public static final Checkpointing DEFAULTS = new Checkpointing(CHECKPOINT_INTERVAL, 1, 1, BackupType.FULL);

        public Checkpointing {
            Objects.requireNonNull(interval, "interval");
            Objects.requireNonNull(backupType, "backupType");
            if (interval.isNegative() || interval.isZero() || retained < 1 || maxConcurrent < 1) {
                throw new IllegalArgumentException("a checkpoint interval is positive and retained and "
                        + "maxConcurrent are 1 or more, were " + interval + ", " + retained + ", " + maxConcurrent);
            }
        }
    }

    /**
     * The job as Cairn runs it ({@link Checkpointing#DEFAULTS}), stored under the directory {@code checkpointDir}
     * (its {@code file:} URI).
     */
    public JobSpec jobSpec(Path checkpointDir) {
        return jobSpec(CheckpointLocation.of(checkpointDir).uri());
    }

    /**
     * The job as Cairn runs it ({@link Checkpointing#DEFAULTS}), stored under {@code storageBase}, an
     * {@code s3://bucket/prefix} or {@code file:} location ({@link CheckpointLocation}).
     */
    public JobSpec jobSpec(String storageBase) {
        return jobSpec(storageBase, Checkpointing.DEFAULTS);
    }

    /**
     * The job as Cairn runs it: checkpoints as {@code checkpointing} says, exactly-once (aligned), stored under
     * {@code storageBase}; only the source is triggered.
     */
    public JobSpec jobSpec(String storageBase, Checkpointing checkpointing) {
        return jobSpec(storageBase, checkpointing, Parallelism.DEFAULTS);
    }

    /**
     * The job as Cairn runs it, with {@code parallelism} subtasks per task (every task's max parallelism
     * {@link #MAX_PARALLELISM}): checkpoints as {@code checkpointing} says, exactly-once (aligned), stored under
     * {@code storageBase}; only the source is triggered.
     */
    public JobSpec jobSpec(String storageBase, Checkpointing checkpointing, Parallelism parallelism) {
        List<TaskVertex> vertices = List.of(
                vertex(SOURCE, parallelism.source(), true),
                vertex(COUNT, parallelism.count(), false),
                vertex(SINK, parallelism.sink(), false));
        CheckpointConfig config = CheckpointConfig.newBuilder()
                .setIntervalMs(checkpointing.interval().toMillis())
                .setTimeoutMs(CHECKPOINT_TIMEOUT.toMillis())
                .setTolerableFailures(Integer.MAX_VALUE)
                .setExactlyOnce(true)
                .setRetained(checkpointing.retained())
                .setMaxConcurrent(checkpointing.maxConcurrent())
                .setBackupType(checkpointing.backupType())
                .setStorageBaseLocation(Objects.requireNonNull(storageBase, "storageBase"))
                .build();
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices).setConfig(config)
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    private static TaskVertex vertex(String taskId, int parallelism, boolean triggered) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism)
                .setMaxParallelism(MAX_PARALLELISM).setTriggered(triggered).setAcknowledges(true).setNotified(true)
                .build();
    }

    /**
     * Creates the pipeline's {@link #topics()} (replication {@code replication}; the data topics with
     * {@link #PARTITIONS} partitions, the commits topic with one, compacted); topics that exist already are kept.
     * Their {@code min.insync.replicas} is the cluster's.
     *
     * @throws IllegalStateException when the broker does not create them in time
     */
    public void createTopics(Admin admin, short replication) {
        List<NewTopic> topics = topics().stream().map(topic -> topic.equals(commitsTopic())
                ? new NewTopic(topic, 1, replication).configs(Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))
                : new NewTopic(topic, PARTITIONS, replication)).toList();
        try {
            for (var created : admin.createTopics(topics).values().entrySet()) {
                try {
                    created.getValue().get(ADMIN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create the topic " + created.getKey() + ": "
                                + e.getCause(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the pipeline's topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the pipeline's topics were not created within " + ADMIN_WAIT, e);
        }
    }
}
