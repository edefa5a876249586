package dev.cairn.pipeline;

import dev.cairn.config.ConfigSchema;
import dev.cairn.events.topics.CairnTopics;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.CaseInsensitiveValidString;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The configuration keys of {@link PipelineWorkerMain}, defined once ({@link #SCHEMA}): each is a flag
 * ({@code --bootstrap-servers}), an environment variable ({@code CAIRN_PIPELINE_BOOTSTRAP_SERVERS}) and a key of the
 * {@code --config} file; {@code kafka.*} keys go to the Kafka clients of the task and its sidecar, {@link #TASK_KAFKA}
 * to the task's clients only. The sidecar's signing key has the sidecar's own name, {@code auth.key.file}, and is
 * required: the worker runs secured only.
 */
public final class PipelineKeys {

    public static final String ROLE = "role";
    public static final String SUBTASK = "subtask";
    /** How many subtasks the role's task runs (the job spec's parallelism of the task). */
    public static final String PARALLELISM = "parallelism";
    /**
     * How many subtasks the task writing the role's input runs (count: the source's, sink: the count's; a source
     * reads no kit topic and ignores it): a partition carries one channel per upstream subtask.
     */
    public static final String UPSTREAM_PARALLELISM = "upstream.parallelism";
    public static final String JOB = "job";
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    /** The job's checkpoint directory, a path; or {@link #CHECKPOINT_LOCATION}, not both. */
    public static final String CHECKPOINT_DIR = "checkpoint.dir";
    /**
     * The job's checkpoint storage base as a URI ({@link CheckpointLocation}): {@code s3://bucket/prefix} (the S3
     * settings from the environment: {@code CAIRN_S3_*} and the AWS SDK's own variables) or {@code file:///dir}; or
     * {@link #CHECKPOINT_DIR}, not both.
     */
    public static final String CHECKPOINT_LOCATION = "checkpoint.location";
    public static final String AUTH_KEY_FILE = "auth.key.file";
    public static final String TOPIC_PREFIX = "topic.prefix";
    /**
     * Kafka client settings for the task's own producers and consumers only, not its sidecar's, as
     * {@code key=value} pairs separated by commas ({@link TaskClientSettings}): flag {@code --task-kafka},
     * environment variable {@code CAIRN_PIPELINE_TASK_KAFKA}. They override {@code kafka.*} keys of the same name.
     */
    public static final String TASK_KAFKA = "task.kafka";

    /** The keys of the pipeline worker. */
    public static final ConfigSchema SCHEMA = new ConfigSchema("cairn-pipeline-worker", new ConfigDef()
            .define(ROLE, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, CaseInsensitiveValidString.in(
                    PipelineTopology.SOURCE, PipelineTopology.COUNT, PipelineTopology.SINK), Importance.HIGH,
                    "The task this process runs a subtask of.")
            .define(SUBTASK, Type.INT, ConfigDef.NO_DEFAULT_VALUE, Range.atLeast(0),
                    Importance.HIGH, "The subtask's index, below the parallelism.")
            .define(PARALLELISM, Type.INT, PipelineTopology.PARALLELISM,
                    Range.between(1, PipelineTopology.MAX_PARALLELISM), Importance.HIGH,
                    "How many subtasks the role's task runs, as the job spec says (after a rescale, the new one).")
            .define(UPSTREAM_PARALLELISM, Type.INT, PipelineTopology.PARALLELISM,
                    Range.between(1, PipelineTopology.MAX_PARALLELISM), Importance.HIGH,
                    "How many subtasks the task writing the role's input runs: for count the source's, for sink "
                            + "the count's; a source ignores it.")
            .define(JOB, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(), Importance.HIGH,
                    "The job id; it prefixes the pipeline's topics (<job>.events, <job>.keyed, ...).")
            .define(BOOTSTRAP_SERVERS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(),
                    Importance.HIGH, "Kafka bootstrap servers.")
            .define(CHECKPOINT_DIR, Type.STRING, null, new NonEmptyString(), Importance.HIGH,
                    "The job's checkpoint directory (its storage base location) as a path, created when missing; "
                            + "the snapshot files go under it. Give this or checkpoint.location.")
            .define(CHECKPOINT_LOCATION, Type.STRING, null, new NonEmptyString(), Importance.HIGH,
                    "The job's checkpoint storage base as a URI, as the job spec's storageBaseLocation: "
                            + "s3://bucket/prefix (S3 settings from CAIRN_S3_ENDPOINT, CAIRN_S3_REGION, "
                            + "CAIRN_S3_PATH_STYLE_ACCESS and the AWS SDK's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, "
                            + "AWS_REGION) or file:///dir (created when missing). Give this or checkpoint.dir.")
            .define(AUTH_KEY_FILE, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(), Importance.HIGH,
                    "A file holding the job's signing key (Base64, from `cairn keys job`), as the sidecar's "
                            + "auth.key.file.")
            .define(TOPIC_PREFIX, Type.STRING, CairnTopics.defaults().prefix(), Importance.LOW,
                    "Prefix of Cairn's topic names, as the coordinator's.")
            .define(TASK_KAFKA, Type.STRING, "", Importance.LOW,
                    "Kafka client settings for the task's own producers and consumers, not its sidecar's: key=value "
                            + "pairs separated by commas, e.g. delivery.timeout.ms=3000,request.timeout.ms=1500 (a "
                            + "value holds no comma). They override kafka.* keys of the same name; the sidecar keeps "
                            + "its own, e.g. the long delivery timeout that rides out a broker restart."),
            "CAIRN_PIPELINE_", "kafka.");

    private PipelineKeys() {
    }
}
