package dev.cairn.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The subtasks of a {@link PipelineTopology} (six unless told: {@link PipelineTopology.Parallelism}) as child OS
 * processes ({@code java -cp <class path> dev.cairn.pipeline.PipelineWorkerMain ...}), each appending its output to
 * {@code <logDir>/<role>-<subtask>.log}, under a supervisor that, like a Kubernetes Deployment, starts again every
 * process that exits with a non-zero status; one that exits 0 (a stop-with-savepoint) stays down. {@link #kill} is
 * SIGKILL ({@link Process#destroyForcibly()}), {@link #restart} a SIGTERM (a graceful stop) followed by a new process,
 * as a rolling restart; what happened is kept as {@link Event}s. {@link #close} stops every process (SIGTERM, then
 * SIGKILL). The children exit with the JVM that started them: each watches its parent's pid. After a
 * stop-with-savepoint, {@link #startRescaled} starts the workers of other parallelisms.
 */
public final class PipelineProcesses implements AutoCloseable {

    private static final Duration SUPERVISION = Duration.ofMillis(50);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    /** What happened to a worker process: started (again), killed, terminated to restart, or exited with a status. */
    public enum Kind { STARTED, KILLED, TERMINATED, EXITED }

    /**
     * One thing that happened to a worker process.
     *
     * @param at when the supervisor saw it
     * @param worker {@code <role>-<subtask>}
     * @param kind what
     * @param exitStatus the exit status for {@link Kind#EXITED}, else 0
     */
    public record Event(Instant at, String worker, Kind kind, int exitStatus) {}

    /**
     * How to start the workers.
     *
     * @param bootstrapServers Kafka
     * @param jobId the job
     * @param checkpointLocation the job's checkpoint storage base, handed to each worker as
     *     {@code --checkpoint-location} ({@link CheckpointLocation}: {@code s3://} or {@code file:})
     * @param authKeyFile the file with the job's signing key
     * @param topicPrefix the prefix of Cairn's topics
     * @param logDir where the logs go
     * @param classPath the class path of the workers (usually this JVM's {@code java.class.path})
     * @param jvmOptions options of each worker JVM, e.g. {@code -Xmx256m}
     * @param taskKafka Kafka client settings for every worker's task, not its sidecar (e.g. a short
     *     {@code delivery.timeout.ms}), handed to each worker as {@code --task-kafka key=value,...}
     *     ({@link PipelineKeys#TASK_KAFKA}); none by default
     * @param environment environment variables set for every worker process on top of this JVM's, e.g. the S3
     *     settings of an {@code s3://} base ({@link S3Environment#variables}); none by default
     * @throws IllegalArgumentException when {@code taskKafka} holds a setting that cannot be given so or that the
     *     worker would refuse ({@link TaskClientSettings})
     */
    public record Settings(String bootstrapServers, String jobId, CheckpointLocation checkpointLocation,
            Path authKeyFile, String topicPrefix, Path logDir, String classPath, List<String> jvmOptions,
            Map<String, String> taskKafka, Map<String, String> environment) {

        public Settings {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(checkpointLocation, "checkpointLocation");
            environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
            Objects.requireNonNull(authKeyFile, "authKeyFile");
            Objects.requireNonNull(topicPrefix, "topicPrefix");
            Objects.requireNonNull(logDir, "logDir");
            Objects.requireNonNull(classPath, "classPath");
            jvmOptions = List.copyOf(jvmOptions);
            taskKafka = Collections.unmodifiableMap(new LinkedHashMap<>(taskKafka));
            TaskClientSettings.format(taskKafka);
        }

        /**
         * Settings of workers keeping their checkpoints in the directory {@code checkpointDir}, whose tasks get no
         * Kafka client settings of their own, with no environment variables of their own.
         */
        public Settings(String bootstrapServers, String jobId, Path checkpointDir, Path authKeyFile,
                String topicPrefix, Path logDir, String classPath, List<String> jvmOptions) {
            this(bootstrapServers, jobId, CheckpointLocation.of(checkpointDir), authKeyFile, topicPrefix, logDir,
                    classPath, jvmOptions, Map.of(), Map.of());
        }
    }

    private final Settings settings;
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    private long slots;
    private PipelineTopology.Parallelism parallelism;
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cairn-pipeline-supervisor");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean closing;

    private PipelineProcesses(Settings settings) {
        this.settings = settings;
    }

    /** Starts every subtask of every task ({@link PipelineTopology#PARALLELISM} each) and the supervisor. */
    public static PipelineProcesses start(Settings settings) {
        return start(settings, PipelineTopology.Parallelism.DEFAULTS);
    }

    /** Starts every subtask of every task, as many as {@code parallelism} says, and the supervisor. */
    public static PipelineProcesses start(Settings settings, PipelineTopology.Parallelism parallelism) {
        PipelineProcesses processes = new PipelineProcesses(settings);
        try {
            Files.createDirectories(settings.logDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log directory " + settings.logDir(), e);
        }
        synchronized (processes) {
            processes.launchAll(parallelism);
        }
        processes.supervisor.scheduleWithFixedDelay(processes::supervise, SUPERVISION.toMillis(),
                SUPERVISION.toMillis(), TimeUnit.MILLISECONDS);
        return processes;
    }

    /** SIGKILLs the process of {@code role}'s subtask {@code subtask}; the supervisor starts it again. */
    public synchronized void kill(String role, int subtask) {
        Worker worker = worker(role + "-" + subtask);
        events.add(new Event(Instant.now(), worker.name(), Kind.KILLED, 0));
        worker.process.destroyForcibly();
    }

    /**
     * Stops the process of {@code role}'s subtask {@code subtask} gracefully (SIGTERM: its sidecar and task close)
     * and starts a new one once it exited, as a rolling restart does; a process that has not exited after a grace is
     * SIGKILLed.
     */
    public synchronized void restart(String role, int subtask) {
        Worker worker = worker(role + "-" + subtask);
        if (closing || worker.done) {
            return;
        }
        events.add(new Event(Instant.now(), worker.name(), Kind.TERMINATED, 0));
        worker.restarting = true;
        worker.process.destroy();
        worker.process.onExit().orTimeout(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionally(timeout -> worker.process.destroyForcibly());
    }

    /**
     * Starts again every worker whose process ended for good (exit 0, after a stop-with-savepoint), as a user redeploys
     * a stopped job's workers; answers their names. Each restores the job's restore point through its sidecar.
     */
    public synchronized List<String> startFinished() {
        List<String> started = new ArrayList<>();
        for (Worker worker : workers.values()) {
            if (worker.done && !closing) {
                worker.done = false;
                launch(worker);
                started.add(worker.name());
            }
        }
        return started;
    }

    /**
     * Starts a new set of workers, as many per task as {@code next} says, once every worker's process ended for good
     * (exit 0 after a stop-with-savepoint): as a user redeploys a job the coordinator rescaled, each new worker
     * restores, through its sidecar, the states of the savepoint the coordinator hands it. Answers their names.
     *
     * @throws IllegalStateException while a worker still runs
     */
    public synchronized List<String> startRescaled(PipelineTopology.Parallelism next) {
        List<String> running = workers.values().stream().filter(worker -> !worker.done).map(Worker::name).toList();
        if (!running.isEmpty() || closing) {
            throw new IllegalStateException("the workers " + running + " still run: stop the job with a savepoint "
                    + "before starting the workers of another parallelism");
        }
        workers.clear();
        return launchAll(next);
    }

    /** The parallelism of the workers started last. */
    public synchronized PipelineTopology.Parallelism parallelism() {
        return parallelism;
    }

    private List<String> launchAll(PipelineTopology.Parallelism next) {
        parallelism = next;
        for (String role : PipelineTopology.tasks()) {
            for (int subtask = 0; subtask < next.of(role); subtask++) {
                Worker worker = new Worker(role, subtask, next.of(role), Math.max(1, next.upstreamOf(role)));
                workers.put(worker.name(), worker);
                slots++;
                launch(worker);
            }
        }
        return List.copyOf(workers.keySet());
    }

    /**
     * How many processes were started again: by the supervisor after a non-zero exit or a {@link #restart}, and by
     * {@link #startFinished}.
     */
    public long restarts() {
        return events.stream().filter(e -> e.kind() == Kind.STARTED).count() - slots;
    }

    /** Everything that happened so far, in order. */
    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The exit status of a worker whose process ended for good (exit 0), if it did. */
    public synchronized Optional<Integer> finished(String role, int subtask) {
        Worker worker = worker(role + "-" + subtask);
        return worker.done ? Optional.of(worker.process.exitValue()) : Optional.empty();
    }

    /** The log file of {@code <role>-<subtask>}. */
    public Path log(String role, int subtask) {
        return settings.logDir().resolve(role + "-" + subtask + ".log");
    }

    /** Stops supervising, then every process: SIGTERM, and SIGKILL for those still running after a grace. */
    @Override
    public void close() {
        closing = true;
        supervisor.shutdownNow();
        synchronized (this) {
            workers.values().forEach(worker -> worker.process.destroy());
            for (Worker worker : workers.values()) {
                try {
                    if (!worker.process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                        worker.process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    worker.process.destroyForcibly();
                }
            }
        }
    }

    private synchronized void supervise() {
        for (Worker worker : workers.values()) {
            if (closing || worker.done || worker.process.isAlive()) {
                continue;
            }
            int status = worker.process.exitValue();
            events.add(new Event(Instant.now(), worker.name(), Kind.EXITED, status));
            if (worker.restarting) {
                worker.restarting = false;
                launch(worker);
            } else if (status == 0) {
                worker.done = true;
            } else {
                launch(worker);
            }
        }
    }

    private Worker worker(String name) {
        Worker worker = workers.get(name);
        if (worker == null) {
            throw new IllegalArgumentException("no worker " + name + "; the workers are " + workers.keySet());
        }
        return worker;
    }

    private void launch(Worker worker) {
        Path log = log(worker.role, worker.subtask);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(settings.jvmOptions());
        command.add("-D" + PipelineWorkerMain.PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
        // the worker logs through logback, its runtime logger, even where the class path holds another SLF4J provider
        // (the CLI's jar names SLF4J's simple logger among its libraries)
        command.add("-Dslf4j.provider=ch.qos.logback.classic.spi.LogbackServiceProvider");
        command.addAll(List.of("-cp", settings.classPath(), PipelineWorkerMain.class.getName(),
                "--role", worker.role, "--subtask", Integer.toString(worker.subtask), "--job", settings.jobId(),
                "--parallelism", Integer.toString(worker.parallelism),
                "--upstream-parallelism", Integer.toString(worker.upstreamParallelism),
                "--bootstrap-servers", settings.bootstrapServers(),
                "--checkpoint-location", settings.checkpointLocation().uri(),
                "--auth-key-file", settings.authKeyFile().toString(), "--topic-prefix", settings.topicPrefix()));
        if (!settings.taskKafka().isEmpty()) {
            command.addAll(List.of("--task-kafka", TaskClientSettings.format(settings.taskKafka())));
        }
        try {
            Files.writeString(log, "=== " + Instant.now() + " starting " + worker.name() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(settings.environment());
            worker.process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + worker.name() + ": " + command, e);
        }
        events.add(new Event(Instant.now(), worker.name(), Kind.STARTED, 0));
    }

    /** One subtask's process slot: the process now running it. */
    private static final class Worker {
        private final String role;
        private final int subtask;
        private final int parallelism;
        private final int upstreamParallelism;
        private volatile Process process;
        private volatile boolean done;
        private volatile boolean restarting;

        Worker(String role, int subtask, int parallelism, int upstreamParallelism) {
            this.role = role;
            this.subtask = subtask;
            this.parallelism = parallelism;
            this.upstreamParallelism = upstreamParallelism;
        }

        String name() {
            return role + "-" + subtask;
        }
    }
}
