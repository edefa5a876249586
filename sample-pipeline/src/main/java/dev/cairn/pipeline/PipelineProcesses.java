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
 * The six subtasks of a {@link PipelineTopology} as child OS processes ({@code java -cp <class path>
 * dev.cairn.pipeline.PipelineWorkerMain ...}), each appending its output to {@code <logDir>/<role>-<subtask>.log},
 * under a supervisor that, like a Kubernetes Deployment, starts again every process that exits with a non-zero
 * status; one that exits 0 (a stop-with-savepoint) stays down. {@link #kill} is SIGKILL
 * ({@link Process#destroyForcibly()}); what happened is kept as {@link Event}s. {@link #close} stops every process
 * (SIGTERM, then SIGKILL). The children exit with the JVM that started them: each watches its parent's pid.
 */
public final class PipelineProcesses implements AutoCloseable {

    private static final Duration SUPERVISION = Duration.ofMillis(50);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    /** What happened to a worker process: started (again), killed, or exited with a status. */
    public enum Kind { STARTED, KILLED, EXITED }

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
     * @param checkpointDir the job's checkpoint directory
     * @param authKeyFile the file with the job's signing key
     * @param topicPrefix the prefix of Cairn's topics
     * @param logDir where the logs go
     * @param classPath the class path of the workers (usually this JVM's {@code java.class.path})
     * @param jvmOptions options of each worker JVM, e.g. {@code -Xmx256m}
     * @param taskKafka Kafka client settings for every worker's task, not its sidecar (e.g. a short
     *     {@code delivery.timeout.ms}), handed to each worker as {@code --task-kafka key=value,...}
     *     ({@link PipelineKeys#TASK_KAFKA}); none by default
     * @throws IllegalArgumentException when {@code taskKafka} holds a setting that cannot be given so or that the
     *     worker would refuse ({@link TaskClientSettings})
     */
    public record Settings(String bootstrapServers, String jobId, Path checkpointDir, Path authKeyFile,
            String topicPrefix, Path logDir, String classPath, List<String> jvmOptions,
            Map<String, String> taskKafka) {

        public Settings {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(checkpointDir, "checkpointDir");
            Objects.requireNonNull(authKeyFile, "authKeyFile");
            Objects.requireNonNull(topicPrefix, "topicPrefix");
            Objects.requireNonNull(logDir, "logDir");
            Objects.requireNonNull(classPath, "classPath");
            jvmOptions = List.copyOf(jvmOptions);
            taskKafka = Collections.unmodifiableMap(new LinkedHashMap<>(taskKafka));
            TaskClientSettings.format(taskKafka);
        }

        /** Settings whose workers' tasks get no Kafka client settings of their own. */
        public Settings(String bootstrapServers, String jobId, Path checkpointDir, Path authKeyFile,
                String topicPrefix, Path logDir, String classPath, List<String> jvmOptions) {
            this(bootstrapServers, jobId, checkpointDir, authKeyFile, topicPrefix, logDir, classPath, jvmOptions,
                    Map.of());
        }
    }

    private final Settings settings;
    private final Map<String, Worker> workers = new LinkedHashMap<>();
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

    /** Starts every subtask of every task and the supervisor. */
    public static PipelineProcesses start(Settings settings) {
        PipelineProcesses processes = new PipelineProcesses(settings);
        try {
            Files.createDirectories(settings.logDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log directory " + settings.logDir(), e);
        }
        for (String role : PipelineTopology.tasks()) {
            for (int subtask = 0; subtask < PipelineTopology.PARALLELISM; subtask++) {
                Worker worker = new Worker(role, subtask);
                processes.workers.put(worker.name(), worker);
                processes.launch(worker);
            }
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

    /** How many processes the supervisor started again after a non-zero exit. */
    public long restarts() {
        return events.stream().filter(e -> e.kind() == Kind.STARTED).count() - workers.size();
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
            if (status == 0) {
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
                "--bootstrap-servers", settings.bootstrapServers(),
                "--checkpoint-dir", settings.checkpointDir().toString(),
                "--auth-key-file", settings.authKeyFile().toString(), "--topic-prefix", settings.topicPrefix()));
        if (!settings.taskKafka().isEmpty()) {
            command.addAll(List.of("--task-kafka", TaskClientSettings.format(settings.taskKafka())));
        }
        try {
            Files.writeString(log, "=== " + Instant.now() + " starting " + worker.name() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            worker.process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + worker.name() + ": " + command, e);
        }
        events.add(new Event(Instant.now(), worker.name(), Kind.STARTED, 0));
    }

    /** One subtask's process slot: the process now running it. */
    private static final class Worker {
        private final String role;
        private final int subtask;
        private volatile Process process;
        private volatile boolean done;

        Worker(String role, int subtask) {
            this.role = role;
            this.subtask = subtask;
        }

        String name() {
            return role + "-" + subtask;
        }
    }
}
