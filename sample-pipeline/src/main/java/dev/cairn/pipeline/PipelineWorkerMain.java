package dev.cairn.pipeline;

import dev.cairn.auth.SigningKey;
import dev.cairn.config.ConfigOptions;
import dev.cairn.config.ConfigProblem;
import dev.cairn.config.LayeredConfig;
import dev.cairn.config.Release;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kit.storage.S3Settings;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.sidecar.app.ShutdownHandshake;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * Runs one subtask of the {@link PipelineTopology} with its sidecar embedded, until it is stopped:
 * {@code --role source|count|sink --subtask N --job ID --bootstrap-servers HOST:PORT --checkpoint-dir DIR
 * --auth-key-file FILE} ({@link PipelineKeys}; flags, {@code CAIRN_PIPELINE_*} variables or a {@code --config}
 * file), with {@code --parallelism N} for the role's task and {@code --upstream-parallelism M} for the task writing
 * its input (2 each unless given; after a rescale, the new ones); {@code --checkpoint-location s3://bucket/prefix}
 * instead of {@code --checkpoint-dir} keeps the snapshots in S3, reached with the S3 settings of the environment
 * ({@link S3Settings#fromEnvironment}). The sidecar restores the task from the job's latest completed checkpoint and
 * registers a new attempt. {@code --task-kafka key=value,...} gives the task's own Kafka clients settings that the
 * sidecar does not get ({@link TaskClientSettings}), e.g. a short {@code delivery.timeout.ms}.
 *
 * <p>Exit status: 0 after a stop-with-savepoint completed (or on SIGTERM); 1, with a one-line reason on stderr, when
 * the task fails or finds it is behind (its supervisor restarts it, and the restart restores the latest completed
 * checkpoint) or when the sidecar cannot start; 2, with a message naming the flag, for a bad flag or value.
 */
@Command(name = "cairn-pipeline-worker", mixinStandardHelpOptions = true, versionProvider = Release.Version.class,
        description = "Runs one subtask of the sample pipeline (source -> count -> exactly-once sink) with its "
                + "Cairn sidecar embedded.")
public final class PipelineWorkerMain implements Callable<Integer> {

    /** A system property naming the pid of the process that started this one: this one exits when that one does. */
    public static final String PARENT_PID_PROPERTY = "cairn.pipeline.parent.pid";
    static final int FAILED = 1;
    static final int CONFIG_ERROR = 2;
    private static final long WATCH_MS = 100;

    @Spec
    CommandSpec spec;

    private final Map<String, String> environment;
    private final ShutdownHandshake handshake = new ShutdownHandshake();
    private ConfigOptions options;

    private PipelineWorkerMain(Map<String, String> environment) {
        this.environment = environment;
    }

    public static void main(String[] args) {
        PipelineWorkerMain main = new PipelineWorkerMain(System.getenv());
        Runtime.getRuntime().addShutdownHook(new Thread(main.handshake::stop, "cairn-pipeline-worker-shutdown"));
        exitWithParent();
        System.exit(commandLine(main).execute(args));
    }

    /** With {@link #PARENT_PID_PROPERTY} set, exits (status 1, closing as on SIGTERM) once that process is gone. */
    private static void exitWithParent() {
        String parent = System.getProperty(PARENT_PID_PROPERTY);
        if (parent == null) {
            return;
        }
        ProcessHandle.of(Long.parseLong(parent)).ifPresentOrElse(
                handle -> handle.onExit().thenRun(() -> System.exit(FAILED)), () -> System.exit(FAILED));
    }

    /** The command line reading {@code environment}, for tests. */
    static CommandLine commandLine(Map<String, String> environment) {
        return commandLine(new PipelineWorkerMain(environment));
    }

    private static CommandLine commandLine(PipelineWorkerMain main) {
        CommandLine commandLine = new CommandLine(main);
        main.options = ConfigOptions.addTo(commandLine.getCommandSpec(), PipelineKeys.SCHEMA, ScopeType.LOCAL);
        return commandLine;
    }

    @Override
    public Integer call() throws Exception {
        return handshake.run(this::run);
    }

    private int run() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Settings settings;
        try {
            settings = settings(options.load(environment), environment);
        } catch (ConfigProblem e) {
            err.println("Invalid cairn-pipeline-worker configuration: " + e.getMessage());
            err.flush();
            return CONFIG_ERROR;
        }
        try (SnapshotStorages storage = SnapshotStorages.of(settings.s3())) {
            return run(settings, storage, err);
        }
    }

    private int run(Settings settings, SnapshotStorages storage, PrintWriter err) throws InterruptedException {
        PipelineTask task = PipelineTask.create(settings.topology(), settings.role(), settings.subtask(),
                settings.parallelism(), settings.clientConfig(), storage);
        Sidecar sidecar;
        try {
            sidecar = Sidecar.start(settings.sidecar(), task.hook());
        } catch (RuntimeException e) {
            return fail(err, task, "the sidecar could not start: " + e.getMessage());
        }
        try (sidecar) {
            while (!handshake.awaitStop(WATCH_MS)) {
                var failure = task.failure(sidecar);
                if (failure.isPresent()) {
                    return fail(err, task, failure.get());
                }
                if (task.stopped(sidecar)) {
                    spec.commandLine().getOut().println(settings.name() + " stopped with a savepoint");
                    break;
                }
            }
        }
        closeQuietly(task, err);
        return CommandLine.ExitCode.OK;
    }

    private static int fail(PrintWriter err, PipelineTask task, String reason) {
        err.println(task.role() + ": " + reason.lines().findFirst().orElse(reason));
        err.flush();
        closeQuietly(task, err);
        return FAILED;
    }

    private static void closeQuietly(PipelineTask task, PrintWriter err) {
        try {
            task.hook().close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            err.println(task.role() + ": closing the task failed: " + e);
            err.flush();
        }
    }

    /**
     * What one invocation runs.
     *
     * @param checkpoints the job's checkpoint storage base
     * @param s3 how to reach S3: from the environment for an {@code s3://} base, else {@link S3Settings#DEFAULTS}
     */
    record Settings(PipelineTopology topology, String role, int subtask, PipelineTopology.Parallelism parallelism,
            Map<String, Object> clientConfig, SidecarConfig sidecar, CheckpointLocation checkpoints, S3Settings s3) {

        String name() {
            return role + "-" + subtask;
        }
    }

    /**
     * The settings {@code config} describes.
     *
     * @throws ConfigProblem naming the key of a value that is wrong
     */
    static Settings settings(LayeredConfig config) {
        return settings(config, Map.of());
    }

    /**
     * The settings {@code config} describes, the S3 settings read from {@code environment}.
     *
     * @throws ConfigProblem naming the key or the environment variable of a value that is wrong
     */
    static Settings settings(LayeredConfig config, Map<String, String> environment) {
        PipelineTopology topology;
        try {
            topology = new PipelineTopology(config.getString(PipelineKeys.JOB));
        } catch (IllegalArgumentException e) {
            throw config.problem(PipelineKeys.JOB, e.getMessage());
        }
        CheckpointLocation checkpoints = checkpoints(config);
        S3Settings s3 = S3Settings.DEFAULTS;
        if (checkpoints.isS3()) {
            try {
                s3 = S3Settings.fromEnvironment(environment);
            } catch (IllegalArgumentException e) {
                throw new ConfigProblem(PipelineKeys.CHECKPOINT_LOCATION, config.describe(
                        PipelineKeys.CHECKPOINT_LOCATION) + " is " + checkpoints + ", but the S3 settings of the "
                        + "environment are wrong: " + e.getMessage());
            }
        }
        SigningKey key;
        try {
            key = SigningKey.fromFile(Path.of(config.getString(PipelineKeys.AUTH_KEY_FILE)));
        } catch (IllegalArgumentException e) {
            throw config.problem(PipelineKeys.AUTH_KEY_FILE, e.getMessage());
        }
        CairnTopics topics;
        try {
            topics = new CairnTopics(config.getString(PipelineKeys.TOPIC_PREFIX));
        } catch (IllegalArgumentException e) {
            throw config.problem(PipelineKeys.TOPIC_PREFIX, e.getMessage());
        }
        String bootstrap = config.getString(PipelineKeys.BOOTSTRAP_SERVERS);
        Map<String, Object> clients = new HashMap<>(config.passThrough());
        try {
            clients.putAll(TaskClientSettings.parse(config.getString(PipelineKeys.TASK_KAFKA)));
        } catch (IllegalArgumentException e) {
            throw config.problem(PipelineKeys.TASK_KAFKA, e.getMessage());
        }
        clients.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        String role = config.getString(PipelineKeys.ROLE).toLowerCase(Locale.ROOT);
        int subtask = config.getInt(PipelineKeys.SUBTASK);
        PipelineTopology.Parallelism parallelism = parallelism(config, role, subtask);
        Map<String, String> sidecarProperties = new HashMap<>(config.passThrough());
        SidecarConfig sidecar = SidecarConfig.forTask(bootstrap, topology.jobId(), role, subtask).withTopics(topics)
                .withAuthKey(key);
        if (!sidecarProperties.isEmpty()) {
            sidecar = new SidecarConfig(sidecar.bootstrapServers(), topics, sidecar.jobId(), role, subtask,
                    sidecar.hookKind(), sidecar.hookClass(), sidecar.hookUrl(), sidecar.hookCommand(),
                    sidecar.hookTimeout(), sidecar.snapshotTimeout(), sidecar.startupTimeout(), sidecarProperties,
                    key, null, null, sidecar.metricsBindAddress(), null, sidecar.host());
        }
        return new Settings(topology, role, subtask, parallelism, clients, sidecar, checkpoints, s3);
    }

    /**
     * The parallelisms {@link PipelineKeys#PARALLELISM} and {@link PipelineKeys#UPSTREAM_PARALLELISM} give the role's
     * task and its upstream (the third task, which this worker does not talk to, at its default).
     *
     * @throws ConfigProblem when the subtask is not below the parallelism
     */
    private static PipelineTopology.Parallelism parallelism(LayeredConfig config, String role, int subtask) {
        int own = config.getInt(PipelineKeys.PARALLELISM);
        int upstream = config.getInt(PipelineKeys.UPSTREAM_PARALLELISM);
        if (subtask >= own) {
            throw config.problem(PipelineKeys.SUBTASK, "is " + subtask + ", but the " + role + " task runs "
                    + own + " subtasks (" + PipelineKeys.PARALLELISM + "): a subtask index is 0 to " + (own - 1));
        }
        int fallback = PipelineTopology.PARALLELISM;
        return switch (role) {
            case PipelineTopology.SOURCE -> new PipelineTopology.Parallelism(own, fallback, fallback);
            case PipelineTopology.COUNT -> new PipelineTopology.Parallelism(upstream, own, fallback);
            default -> new PipelineTopology.Parallelism(fallback, upstream, own);
        };
    }

    /**
     * The storage base {@link PipelineKeys#CHECKPOINT_LOCATION} or {@link PipelineKeys#CHECKPOINT_DIR} names (one of
     * them), a local directory created.
     */
    private static CheckpointLocation checkpoints(LayeredConfig config) {
        String dirKey = PipelineKeys.CHECKPOINT_DIR;
        String locationKey = PipelineKeys.CHECKPOINT_LOCATION;
        String dir = config.getString(dirKey);
        String location = config.getString(locationKey);
        if (dir != null && location != null) {
            throw config.contradiction(locationKey, dirKey);
        }
        if (dir == null && location == null) {
            throw new ConfigProblem(locationKey, "the checkpoint storage is missing: " + LayeredConfig.ways(
                    PipelineKeys.SCHEMA, locationKey) + " (" + CheckpointLocation.EXPECTED + "), or give a "
                    + "directory with " + dirKey);
        }
        String key = dir != null ? dirKey : locationKey;
        CheckpointLocation checkpoints;
        try {
            checkpoints = dir != null ? CheckpointLocation.of(Path.of(dir)) : CheckpointLocation.parse(location);
        } catch (IllegalArgumentException e) {
            throw config.problem(key, e.getMessage());
        }
        if (!checkpoints.isS3()) {
            createDirectory(config, key, checkpoints.directory());
        }
        return checkpoints;
    }

    private static void createDirectory(LayeredConfig config, String key, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw config.problem(key, "cannot be created as a directory: " + e);
        }
        if (!Files.isWritable(dir)) {
            throw config.problem(key, "is not writable");
        }
    }
}
