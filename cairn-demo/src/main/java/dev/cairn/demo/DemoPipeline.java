package dev.cairn.demo;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.JobSpec;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineProcesses;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.pipeline.ResultsReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The demo's job: the sample pipeline (source x2 → count x2 → exactly-once sink x2, a running count per key), its
 * six subtasks as child processes under {@link PipelineProcesses} (each with its sidecar embedded, signing with the
 * job's key; the supervisor starts again whatever dies), its checkpoints in the {@link DemoStorage}, its input
 * produced in slices while it runs, and the exactly-once check of what the sinks committed ({@link ExactlyOnceCheck},
 * reading read_committed).
 */
final class DemoPipeline implements AutoCloseable {

    private static final List<String> WORKER_JVM = List.of("-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private static final int SLICES = 20;
    /** The lines of a worker's log that say what it restored. */
    private static final Pattern RESTORE_LINE = Pattern.compile(".*(restored|as generation|rolls back).*");

    final PipelineTopology topology;
    final InputEvents input;
    private final String bootstrapServers;
    private final Path dir;
    private final DemoStorage storage;
    private final AtomicInteger produced = new AtomicInteger();
    private final AtomicReference<RuntimeException> produceFailure = new AtomicReference<>();
    private final ExecutorService producer = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cairn-demo-input");
        thread.setDaemon(true);
        return thread;
    });
    private final ExactlyOnceCheck check;
    private PipelineProcesses workers;
    private ResultsReader results;

    DemoPipeline(String bootstrapServers, String jobId, InputEvents input, Path dir, DemoStorage storage) {
        this.bootstrapServers = bootstrapServers;
        this.topology = new PipelineTopology(jobId);
        this.input = input;
        this.dir = dir;
        this.storage = storage;
        this.check = new ExactlyOnceCheck(input.expectedCounts());
    }

    /** Creates the pipeline's topics; answers the job spec to register. */
    JobSpec prepare() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            topology.createTopics(admin, (short) 1);
        }
        return topology.jobSpec(storage.checkpoints().uri());
    }

    /** Starts the six worker processes, each signing with {@code jobKey}; their logs go to {@link #logDir()}. */
    void startWorkers(CairnTopics topics, SigningKey jobKey) {
        Path keyFile = dir.resolve("job.key");
        try {
            Files.createDirectories(dir);
            Files.writeString(keyFile, jobKey.toBase64() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job key to " + keyFile, e);
        }
        workers = PipelineProcesses.start(new PipelineProcesses.Settings(bootstrapServers, topology.jobId(),
                storage.checkpoints(), keyFile, topics.prefix(), logDir(), System.getProperty("java.class.path"),
                WORKER_JVM, Map.of(), storage.workerEnvironment()));
        results = new ResultsReader(bootstrapServers, topology.resultsTopic(), check);
    }

    Path logDir() {
        return dir.resolve("logs");
    }

    /**
     * Produces the input from where it stands up to event {@code upTo} (exclusive), in slices spread over {@code over},
     * on a thread of its own.
     */
    void produceOver(Duration over, int upTo) {
        int slice = Math.max(1, (upTo - produced.get()) / SLICES);
        long pauseMs = Math.max(1, over.toMillis() / SLICES);
        producer.execute(() -> {
            try {
                while (produced.get() < upTo) {
                    int to = Math.min(upTo, produced.get() + slice);
                    input.produce(bootstrapServers, topology.eventsTopic(), produced.get(), to);
                    produced.set(to);
                    if (to < upTo) {
                        TimeUnit.MILLISECONDS.sleep(pauseMs);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                produceFailure.set(e);
            }
        });
    }

    /** How many events were produced so far; throws what a failed produce threw. */
    int produced() {
        if (produceFailure.get() != null) {
            throw produceFailure.get();
        }
        return produced.get();
    }

    /**
     * Starts every worker whose process ended after a stop-with-savepoint again, as new processes, as a user redeploys
     * a stopped job's workers; answers their names.
     */
    List<String> redeploy() {
        return workers.startFinished();
    }

    /**
     * Starts the workers of {@code parallelism} once every worker ended after the rescale's stop, as a user redeploys
     * a job the coordinator rescaled; answers their names.
     */
    List<String> startRescaled(PipelineTopology.Parallelism parallelism) {
        return workers.startRescaled(parallelism);
    }

    /** How many workers the job runs now. */
    int workerCount() {
        PipelineTopology.Parallelism parallelism = workers.parallelism();
        return PipelineTopology.tasks().stream().mapToInt(parallelism::of).sum();
    }

    /** Where the job's checkpoints are: {@code <base>/<job>}, their own objects and the shared ones. */
    String checkpointsOfJob() {
        return storage.checkpoints().resolve(topology.jobId());
    }

    /** SIGKILLs {@code role}'s subtask {@code subtask}; the supervisor starts it again. */
    void kill(String role, int subtask) {
        workers.kill(role, subtask);
    }

    /** The lines of {@code role-subtask}'s log that say what each of its incarnations restored. */
    List<String> restoreLines(String role, int subtask) {
        try (var lines = Files.lines(workers.log(role, subtask), StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.startsWith("===") || RESTORE_LINE.matcher(line).matches()).toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of("(cannot read " + workers.log(role, subtask) + ": " + e + ")");
        }
    }

    /** How many worker processes the supervisor started again. */
    long restarts() {
        return workers.restarts();
    }

    /** Reads the committed results so far; answers whether every key reached its final count. */
    boolean outputComplete() {
        results.readToEnd();
        return produced() == input.events() && check.reached();
    }

    /** The verdict on every result committed so far. */
    ExactlyOnceCheck.Report report() {
        results.readToEnd();
        return check.report();
    }

    /** The exit status of every worker whose process ended for good (after a stop-with-savepoint). */
    List<Integer> exitStatuses() {
        PipelineTopology.Parallelism parallelism = workers.parallelism();
        return PipelineTopology.tasks().stream()
                .flatMap(role -> IntStream.range(0, parallelism.of(role))
                        .mapToObj(subtask -> workers.finished(role, subtask)))
                .flatMap(Optional::stream).toList();
    }

    @Override
    public void close() {
        producer.shutdownNow();
        if (results != null) {
            results.close();
        }
        if (workers != null) {
            workers.close();
        }
    }
}
