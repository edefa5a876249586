package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.LatencyRow;
import dev.cairn.bench.e2e.Results.ReviewRow;
import dev.cairn.bench.e2e.Results.ShapeRow;
import dev.cairn.bench.e2e.Results.SizeRow;
import dev.cairn.bench.e2e.Workload.Job;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;

/**
 * The end-to-end benchmark of the Cairn coordinator, every figure next to its reference measured in the same run
 * on the same broker: a real in-JVM KRaft broker ({@link EmbeddedKafkaBroker}), a real coordinator
 * ({@link CoordinatorApp}, exactly_once_v2, 3 partitions, commit interval 20 ms, in-memory stores), driven as
 * users and sidecars drive it (records on {@code cairn.requests} and {@code cairn.acks}, notifications read from
 * {@code cairn.control} with {@code read_committed}). Secured, as the coordinator runs by default: every
 * coordinator of the run gets a generated sidecar master key and verifies every record of {@code cairn.acks}, and
 * the benchmark signs every TaskStarted and ack it produces with its job's key (derived when the job is made, before
 * any clock runs) in the producer's serializer, as a sidecar does, so signing is inside the measured time
 * ({@link SidecarKeys}), and every job spec and trigger request with the requests key; {@code --unsigned}
 * measures the unsigned mode ({@code --allow-unsigned-sidecar-records --allow-unsigned-requests}).
 * The trivial app is fed the same records, signed alike, and checks no signature. Records have realistic sizes:
 * 32-hex-digit job and vertex ids, 36-character attempt ids, 100-byte state handle locations.
 *
 * <h2>What it measures</h2>
 * <ol>
 *   <li><b>Throughput</b> per shape (jobs x subtasks, default 1 x 10,000, 100 x 100, 1,000 x 10): every job
 *       checkpoints {@code --checkpoints} times (rounds), after unreported warm-up rounds. Per round one
 *       TriggerRequest per job; once every trigger
 *       is read, all acks of all jobs are produced (interleaved across jobs) and the round ends when every job's
 *       CheckpointCompleted is read. Cairn acks/s = acks of the steady-state rounds / their time (the first
 *       {@code --steady-after} rounds are left out, so that the coordinator's 10-entry checkpoint history is
 *       evicting). Next to it, on the same broker: the <b>trivial app</b> ({@link TrivialApp}: the coordinator's
 *       Kafka Streams settings, one get + one put on an in-memory store and one record forwarded per record) fed
 *       the same records in the same rounds, and the <b>raw consume</b> rate ({@link RawConsume}: a plain
 *       read_committed consumer reading the steady-state acks back). Ratio = Cairn acks/s / trivial records/s.</li>
 *   <li><b>Completion latency</b> ({@link LatencyRun}): last ack flushed -> completion read by a sidecar-like
 *       consumer, p50 / p99 over {@code --latency-samples} checkpoints of a small job, next to the trivial app's
 *       record latency (produced -> output read) at the same commit interval.</li>
 *   <li><b>Record sizes</b> ({@link RecordSizeRun}): for one job of N subtasks, the control bytes a sidecar reads
 *       per checkpoint and the largest record the coordinator wrote to any of its topics. A trigger or completion
 *       over the coordinator's record limit is dead-lettered ({@code cairn.dlq}): the row then reads
 *       "did not complete: trigger dead-lettered, OUTPUT_TOO_LARGE" as soon as the dead letter is read.</li>
 *   <li><b>Settings review</b> ({@link SettingsReview}): the review shape against a fresh coordinator per variant
 *       of Kafka Streams overrides (max.task.idle.ms, producer linger/batch/compression, commit interval).</li>
 * </ol>
 * Any row that does not complete (dead letter, abort, no event within {@code --timeout-s}) is reported as a
 * failure row and the run goes on. Output: {@code e2e.md} (a header line with cores, JVM, date and commit, then the
 * tables, also printed) and {@code e2e.png} (acks/s per shape next to the trivial app) in {@code --out}.
 *
 * <h2>How to run</h2>
 * From the repository root, after {@code mvn -B -q install -DskipTests} (which also compiles this module):
 * <pre>
 * mvn -B -q -pl benchmarks exec:java@e2e -Dexec.args="--shapes=1x10000,100x100,1000x10 --checkpoints=24"
 * </pre>
 * (the defaults; about 7.5 minutes on 2 cores, half of it the settings review's 12 coordinator runs). Everything
 * runs in Maven's JVM ({@code exec:java}, no fork), from the classes the install compiled, so run the install again
 * after changing anything. Other flags go into
 * {@code -Dexec.args}, e.g. {@code -Dexec.args="--shapes=1x10000 --location-bytes=16 --out=/tmp/e2e"}. Single
 * runs on a 2-core machine vary a lot: the same configuration measured 12k and 21k acks/s in two runs, and review
 * variants moved by up to ±40 % between runs (see the round times printed per shape and the review's per-repeat
 * figures); compare figures of the same run and repeat a run before acting on a difference.
 *
 * <p>A trigger or completion over the coordinator's 1,000,000-byte record limit fails its row rather than the run:
 * before ControlEnvelope v2, when a CheckpointCompleted listed every subtask's state, the completion of a
 * 10,000-subtask checkpoint with these sizes was about 1.78 MB, and the 1 x 10,000 shape, the settings review and
 * the 10,000-subtask size row read "did not complete: completion (the last ack's decision) dead-lettered,
 * OUTPUT_TOO_LARGE" (the 100,000-subtask trigger likewise); {@code --location-bytes=16} made the 10,000 rows fit.
 *
 * <h2>Flags</h2>
 * <ul>
 *   <li>{@code --shapes=1x10000,100x100,1000x10}: throughput shapes, JOBSxSUBTASKS; empty skips the part.</li>
 *   <li>{@code --warmup-checkpoints=10}: unreported rounds of the first shape, on the coordinator and the trivial
 *       app, before anything is measured (JIT warm-up; the first shape measured otherwise pays for it); 0: none.</li>
 *   <li>{@code --checkpoints=24}: rounds (checkpoints per job) per shape.</li>
 *   <li>{@code --steady-after=12}: rounds left out of every rate (all rounds count when there are no more).</li>
 *   <li>{@code --location-bytes=100}: length of every state handle location.</li>
 *   <li>{@code --ack-linger-ms=5}: {@code linger.ms} of the ack producer (batch.size 256 KiB, idempotent,
 *       acks=all); also of the trivial app's feeder.</li>
 *   <li>{@code --commit-interval-ms=20}: commit interval of the coordinators and of the trivial app.</li>
 *   <li>{@code --streams-config=k=v;k=v}: Kafka Streams overrides of every coordinator (and of the trivial app,
 *       which takes the main coordinator's settings); empty by default.</li>
 *   <li>{@code --latency-samples=200}, {@code --latency-warmup=20}, {@code --latency-subtasks=10}: the latency
 *       part (measured checkpoints, unmeasured ones before them, subtasks of its job); 0 samples skips it.</li>
 *   <li>{@code --size-subtasks=100,10000,100000}: subtasks of the record-size jobs; empty skips the part.</li>
 *   <li>{@code --review-shape=1x10000}, {@code --review-checkpoints=24}: shape and rounds of the settings
 *       review.</li>
 *   <li>{@code --review-repeats=2}: runs of every variant, in order, then in reverse order, ...; a variant's rate
 *       counts the steady-state rounds of all its runs.</li>
 *   <li>{@code --review=default;max.task.idle.ms=-1;producer.linger.ms=0;
 *       producer.linger.ms=20+producer.batch.size=262144;producer.compression.type=lz4;commit.interval.ms=100}:
 *       the variants, ';'-separated; a variant is {@code default} (no overrides) or {@code k=v+k=v}; {@code none}
 *       skips the review.</li>
 *   <li>{@code --unsigned}: sidecar records and requests produced without a signature, to coordinators without a
 *       master key (the coordinator's {@code --allow-unsigned-sidecar-records --allow-unsigned-requests}); the
 *       trivial app's feeder likewise. Without it (the default) every record to the acks and requests topics and
 *       to the trivial app is signed, and every coordinator verifies. Measure both in one session, alternating, to see
 *       what signing costs.</li>
 *   <li>{@code --timeout-s=60}: the longest wait for any one event before the row fails.</li>
 *   <li>{@code --out=benchmarks/target/benchmark}: where {@code e2e.md} and {@code e2e.png} go.</li>
 * </ul>
 */
public final class EndToEndBenchmark {

    private EndToEndBenchmark() {}

    /** Runs the benchmark with the given flags (see the class comment) and writes its report. */
    public static void main(String[] args) throws Exception {
        quietLogs();
        run(args);
    }

    /** Runs the benchmark; the results, or null after printing the usage for {@code --help}. */
    static Results run(String... args) throws IOException, InterruptedException {
        E2eOptions options = E2eOptions.parse(args);
        if (options == null) {
            return null;
        }
        long started = System.nanoTime();
        SidecarKeys keys = options.unsigned ? SidecarKeys.unsigned() : SidecarKeys.signed();
        Workload workload = new Workload(options.locationBytes, keys);
        Duration timeout = Duration.ofSeconds(options.timeoutS);
        List<ShapeRow> shapes = new ArrayList<>();
        LatencyRow latency = null;
        List<SizeRow> sizes = new ArrayList<>();
        List<ReviewRow> review;
        boolean verified;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            try (CoordinatorInstance coordinator = CoordinatorInstance.start(bootstrap, CairnTopics.DEFAULT_PREFIX,
                    options.commitIntervalMs, options.streamsConfig, keys.masterKey());
                    CairnDriver driver = new CairnDriver(bootstrap, CairnTopics.defaults(), workload, timeout,
                            options.ackLingerMs);
                    TrivialApp trivial = TrivialApp.start(bootstrap, CoordinatorApp.streamsProperties(
                            coordinator.config()), CoordinatorInstance.PARTITIONS, workload, options.ackLingerMs,
                            timeout)) {
                verified = coordinator.config().sidecarMasterKey() != null;
                warmUp(bootstrap, driver, trivial, options);
                for (Shape shape : options.shapesParsed()) {
                    System.out.printf("throughput %s%n", shape);
                    shapes.add(shape(bootstrap, driver, trivial, workload, shape, options));
                }
                if (options.latencySamples > 0) {
                    System.out.println("latency");
                    latency = LatencyRun.run(driver, trivial, options.latencySubtasks, options.latencyWarmup,
                            options.latencySamples);
                }
                for (int subtasks : options.sizeSubtasksParsed()) {
                    System.out.printf("record sizes, %,d subtasks%n", subtasks);
                    sizes.add(RecordSizeRun.run(bootstrap, coordinator, driver, subtasks));
                }
            }
            review = SettingsReview.run(bootstrap, options, workload);
        }
        Results results = new Results(machine(), String.join(", ", options.describe()),
                keys.isSigned() && verified, shapes, latency, sizes, review);
        String markdown = MarkdownReport.render(results);
        Files.createDirectories(options.out);
        Files.writeString(options.out.resolve("e2e.md"), markdown, StandardCharsets.UTF_8);
        ChartWriter.write(results, options.out.resolve("e2e.png"));
        System.out.println();
        System.out.println(markdown);
        System.out.printf(Locale.ROOT, "Wrote %s and %s in %.0f s%n", options.out.resolve("e2e.md"),
                options.out.resolve("e2e.png"), (System.nanoTime() - started) / 1e9);
        return results;
    }

    /**
     * Unreported rounds of the first shape on the coordinator and the trivial app, so that the first measured
     * shape does not pay for the JIT compiling the broker, the clients and the coordinator on two cores.
     */
    private static void warmUp(String bootstrap, CairnDriver driver, TrivialApp trivial, E2eOptions options) {
        if (options.warmupCheckpoints < 1 || options.shapesParsed().isEmpty()) {
            return;
        }
        Shape shape = options.shapesParsed().get(0);
        System.out.printf("warm-up %s, %d rounds (not reported)%n", shape, options.warmupCheckpoints);
        ThroughputRun.Outcome outcome = ThroughputRun.run(bootstrap, driver, shape, options.warmupCheckpoints, 0);
        if (!outcome.jobs().isEmpty()) {
            trivial.measure(outcome.jobs(), options.warmupCheckpoints, 0, () -> { });
        }
    }

    private static ShapeRow shape(String bootstrap, CairnDriver driver, TrivialApp trivial, Workload workload,
            Shape shape, E2eOptions options) {
        ThroughputRun.Outcome cairn = ThroughputRun.run(bootstrap, driver, shape, options.checkpoints,
                options.steadyAfter);
        List<Job> jobs = cairn.jobs().isEmpty() ? java.util.stream.IntStream.range(0, shape.jobs())
                .mapToObj(i -> workload.newJob(shape.subtasks())).toList() : cairn.jobs();
        List<Map<TopicPartition, Long>> trivialFrom = new ArrayList<>();
        Results.Rate reference = trivial.measure(jobs, options.checkpoints, options.steadyAfter,
                () -> trivialFrom.add(RawConsume.endOffsets(bootstrap, TrivialApp.INPUT)));
        System.out.printf(Locale.ROOT, "  %s: trivial app %.0f records/s steady state; round ms %s%n", shape,
                reference.perSecond(), ThroughputRun.format(reference.roundMs()));
        // the same acks read back: Cairn's steady-state rounds, or the trivial app's when Cairn's failed
        double raw = cairn.steadyAcksTo() != null
                ? RawConsume.recordsPerSecond(bootstrap, cairn.steadyAcksFrom(), cairn.steadyAcksTo())
                : RawConsume.recordsPerSecond(bootstrap, trivialFrom.get(0),
                        RawConsume.endOffsets(bootstrap, TrivialApp.INPUT));
        System.out.printf(Locale.ROOT, "  %s: raw consume %.0f records/s%n", shape, raw);
        return new ShapeRow(shape, cairn.rate(), cairn.failure(), reference, raw, cairn.triggered(),
                cairn.completed(), cairn.steadyWrites());
    }

    /** The header line: cores, JVM, date and commit. */
    public static String machine() {
        return String.format(Locale.ROOT, "Machine: %d cores, %s %s (%s), max heap %,d MiB; %s; commit %s",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("os.name") + " "
                        + System.getProperty("os.arch"), Runtime.getRuntime().maxMemory() >> 20,
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                commit());
    }

    private static String commit() {
        String head = git("rev-parse", "--short=12", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        return git("status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + " (with local changes)";
    }

    private static String git(String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Logback at WARN (the coordinator logs every checkpoint at INFO), unless a configuration is given. */
    public static void quietLogs() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "dev/cairn/bench/e2e/logback-e2e.xml");
        }
    }
}
