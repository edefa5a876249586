package dev.cairn.pipeline;

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
 * <p>In: the job id and the directory its checkpoints go to. Out: the topic names, partition counts and
 * parallelisms every process of the pipeline agrees on, the Cairn {@link JobSpec} to register (the source is
 * triggered; count and sink are not, they acknowledge and are notified once the barriers reached them), and the
 * topics, created by {@link #createTopics}.
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
    /** Subtasks of every task. */
    public static final int PARALLELISM = 2;
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
     * The job as Cairn runs it: checkpoints every {@link #CHECKPOINT_INTERVAL}, exactly-once (aligned), stored under
     * {@code checkpointDir} (a {@code file:} URI); only the source is triggered.
     */
    public JobSpec jobSpec(Path checkpointDir) {
        List<TaskVertex> vertices = List.of(
                vertex(SOURCE, true),
                vertex(COUNT, false),
                vertex(SINK, false));
        CheckpointConfig config = CheckpointConfig.newBuilder()
                .setIntervalMs(CHECKPOINT_INTERVAL.toMillis())
                .setTimeoutMs(CHECKPOINT_TIMEOUT.toMillis())
                .setTolerableFailures(Integer.MAX_VALUE)
                .setExactlyOnce(true)
                .setStorageBaseLocation(checkpointDir.toAbsolutePath().toUri().toString())
                .build();
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices).setConfig(config)
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    private static TaskVertex vertex(String taskId, boolean triggered) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(PARALLELISM).setTriggered(triggered)
                .setAcknowledges(true).setNotified(true).build();
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
