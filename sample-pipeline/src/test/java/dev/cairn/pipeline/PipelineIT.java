package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sample pipeline end to end: the in-JVM broker, an in-JVM coordinator that requires signed records, the job
 * registered with a signed request, its six subtasks as separate worker processes under a supervisor; the input
 * produced while it runs, workers SIGKILLed at random moments while checkpoints run every 500 ms, and the output
 * read read_committed must count every key 1, 2, ..., n exactly once. At the end a stop-with-savepoint stops every
 * worker with status 0. Logs: {@code target/pipeline-it/<job>/logs}. {@code -Dpipeline.kills=0 -Dpipeline.slices=1}
 * measures the pipeline's own throughput (input produced at once, no kill); more kills make a harsher run.
 */
@ExtendWith(KafkaClusterExtension.class)
class PipelineIT {

    @RegisterExtension
    static final CoordinatorTestBed CAIRN = CoordinatorTestBed.perTestClass().create();

    private static final int EVENTS = 100_000;
    private static final int KEYS = 1_000;
    /** How many slices the input is produced in, one every {@link #PRODUCE_EVERY}; 1 produces it at once. */
    private static final int SLICES = Integer.getInteger("pipeline.slices", 40);
    private static final Duration PRODUCE_EVERY = Duration.ofMillis(400);
    /** How many workers are killed (one of each task before any twice). */
    private static final int KILLS = Integer.getInteger("pipeline.kills", 3);
    private static final Duration KILL_WINDOW = Duration.ofSeconds(21);
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void shouldCountEveryEventExactlyOnceWhenWorkersAreKilledWhileCheckpointsRun(KafkaCluster kafka)
            throws IOException {
        PipelineJob pipeline = PipelineJob.named(CAIRN, kafka, "pipeline", WAIT);
        String job = pipeline.id();
        PipelineTopology topology = pipeline.register();
        InputEvents input = new InputEvents(EVENTS, KEYS);
        long seed = System.nanoTime();
        KillSchedule schedule = new KillSchedule(seed, KILLS, KILL_WINDOW);
        System.out.printf("PipelineIT: job %s, %d events over %d keys, kills (seed %d): %s%n", job, EVENTS, KEYS,
                seed, schedule.kills());

        ExactlyOnceCheck check = new ExactlyOnceCheck(input.expectedCounts());
        try (PipelineProcesses workers = PipelineProcesses.start(pipeline.settings());
                ResultsReader results = new ResultsReader(kafka.bootstrapServers(), topology.resultsTopic(), check);
                schedule) {
            pipeline.awaitCompleted(1);
            Instant start = Instant.now();
            AtomicInteger produced = produceInSlices(kafka, topology, input);
            schedule.start(workers);

            await("the output reaches every key's count").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> schedule.finished() && produced.get() == EVENTS && results.readToEnd() >= 0
                            && check.reached());
            Duration elapsed = Duration.between(start, Instant.now());
            pipeline.awaitCompleted(pipeline.completed().size() + 2);
            results.readToEnd();
            ExactlyOnceCheck.Report report = check.report();

            printFigures(pipeline, workers, elapsed, report);
            assertThat(report.passed()).as(report.toString()).isTrue();
            assertThat(kills(workers)).isEqualTo(KILLS);
            assertThat(workers.restarts()).isGreaterThanOrEqualTo(KILLS);

            pipeline.stopWithSavepoint();
            pipeline.awaitEveryWorkerExitsZero(workers);
        }
    }

    @Test
    void shouldExitOneWithAOneLineReasonWhenItsTaskCannotStart(KafkaCluster kafka) throws Exception {
        PipelineJob pipeline = PipelineJob.named(CAIRN, kafka, "no-topics", WAIT);
        String job = pipeline.id();
        PipelineProcesses.Settings settings = pipeline.settings();
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                settings.classPath(), PipelineWorkerMain.class.getName(), "--role", "count", "--subtask", "0",
                "--job", job, "--bootstrap-servers", kafka.bootstrapServers(),
                "--checkpoint-dir", settings.checkpointLocation().directory().toString(),
                "--auth-key-file", settings.authKeyFile().toString(), "--topic-prefix", settings.topicPrefix());
        Path stderr = pipeline.dir().resolve("stderr.txt");
        Process worker = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile()).start();
        try {
            assertThat(worker.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the worker exits").isTrue();
        } finally {
            worker.destroyForcibly();
        }

        List<String> reason = Files.readAllLines(stderr).stream().filter(line -> line.startsWith("count: "))
                .toList();
        assertThat(worker.exitValue()).isEqualTo(PipelineWorkerMain.FAILED);
        assertThat(reason).singleElement().asString().contains("could not start")
                .contains(job + ".keyed does not exist");
    }

    /** Produces the input in {@link #SLICES} slices, one every {@link #PRODUCE_EVERY}; answers the count so far. */
    private static AtomicInteger produceInSlices(KafkaCluster kafka, PipelineTopology topology, InputEvents input) {
        AtomicInteger produced = new AtomicInteger();
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        int slice = EVENTS / SLICES;
        producer.scheduleWithFixedDelay(() -> {
            int from = produced.get();
            int to = Math.min(EVENTS, from + slice);
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), from, to);
            produced.set(to);
            if (to == EVENTS) {
                producer.shutdown();
            }
        }, 0, PRODUCE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return produced;
    }

    private static long kills(PipelineProcesses workers) {
        return workers.events().stream().filter(e -> e.kind() == PipelineProcesses.Kind.KILLED).count();
    }

    private static void printFigures(PipelineJob pipeline, PipelineProcesses workers, Duration elapsed,
            ExactlyOnceCheck.Report report) {
        String job = pipeline.id();
        List<CheckpointCompleted> completed = pipeline.completed();
        List<CheckpointAborted> aborted = CAIRN.journal(CheckpointAborted.class, a -> a.getJobId().equals(job));
        Map<String, Long> abortReasons = aborted.stream()
                .collect(Collectors.groupingBy(a -> a.getReason().toString(), Collectors.counting()));
        StringBuilder out = new StringBuilder("PipelineIT figures for ").append(job).append('\n');
        out.append(String.format("  %d events in %d ms after the first checkpoint: %.0f events/s end to end%n",
                EVENTS, elapsed.toMillis(), EVENTS * 1000.0 / Math.max(1, elapsed.toMillis())));
        out.append("  kills ").append(kills(workers)).append(", restarts ").append(workers.restarts()).append('\n');
        out.append("  checkpoints completed ").append(completed.size()).append(", aborted ").append(aborted.size())
                .append(' ').append(abortReasons).append('\n');
        PipelineFigures.recoveries(workers.events(), completed).forEach(r -> out.append("  ").append(r).append('\n'));
        workers.events().stream().filter(e -> e.kind() == PipelineProcesses.Kind.EXITED)
                .forEach(e -> out.append("  exit: ").append(e).append('\n'));
        out.append("  ").append(report);
        System.out.println(out);
    }
}
