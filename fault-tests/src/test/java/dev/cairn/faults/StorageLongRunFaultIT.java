package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.BackupType;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineProcesses;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.pipeline.ResultsReader;
import dev.cairn.s3.S3ProxyServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Storage stays bounded over thousands of checkpoints: the sample pipeline on one Kafka node process and one
 * coordinator process, its checkpoints in a bucket of an S3 API server (S3Proxy) in the test's JVM, INCREMENTAL (the
 * count subtasks write only the key groups that changed, under {@code <base>/<job>/shared/}), every
 * {@code cairn.storage.interval.ms} (default 50 ms), two retained. While the input is produced, a worker picked at
 * random is restarted gracefully (SIGTERM, then a new process) every {@code cairn.storage.restart.seconds} (default
 * 25), so that checkpoints in flight are aborted and their states discarded; the run goes on until
 * {@code cairn.storage.checkpoints} (default 2,000) checkpoints completed and the input is produced.
 *
 * <p>The bucket is sampled every few seconds ({@link BucketSamples}) and the samples are printed: while the job runs,
 * the workers delete what the coordinator discards a little behind it (a sidecar hands discards to its worker one at a
 * time, and one that restarts hands over what it missed when it is back), so a sample may hold a backlog above
 * {@link #objectBound}. The test asserts what the run leaves: (a) every object the coordinator discarded is deleted;
 * (b) what it keeps fits {@link #objectBound}; (c) the only others are snapshots written but never acknowledged (a
 * restart between the write and the ack), at most {@link #orphansPerRestart} per restart; (d) after a
 * stop-with-savepoint that drains the job, the results count every key exactly once. It prints the figures
 * ({@code [storage]} lines) and what is left in the bucket at the end ({@link StorageAudit}). Logs:
 * {@code target/faults/storage-long-run-*}.
 */
class StorageLongRunFaultIT {

    private static final int CHECKPOINTS = Integer.getInteger("cairn.storage.checkpoints", 2_000);
    private static final Duration INTERVAL = Duration.ofMillis(Integer.getInteger("cairn.storage.interval.ms", 50));
    private static final Duration RESTART_EVERY = Duration.ofSeconds(Integer.getInteger(
            "cairn.storage.restart.seconds", 25));
    private static final int RETAINED = 2;
    private static final int MAX_CONCURRENT = Integer.getInteger("cairn.storage.concurrent", 3);
    private static final int EVENTS = Integer.getInteger("cairn.storage.events", 12_000);
    private static final int KEYS = Integer.getInteger("cairn.storage.keys", 16);
    private static final Duration PRODUCE_OVER = Duration.ofSeconds(Integer.getInteger(
            "cairn.storage.produce.seconds", 240));
    private static final int SLICES = 200;
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(3);
    private static final Duration RUN_AT_MOST = Duration.ofMinutes(15);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int STOP_ATTEMPTS = 3;
    /** Key groups of a subtask's keyed state (the kit cuts it into 128). */
    private static final int KEY_GROUPS = 128;

    @Test
    void shouldKeepTheBucketBoundedOverThousandsOfCheckpointsWithAbortsAndRestarts() {
        long seed = Long.getLong("cairn.storage.seed", System.nanoTime());
        PipelineTopology.Checkpointing checkpointing = new PipelineTopology.Checkpointing(INTERVAL, RETAINED,
                MAX_CONCURRENT, BackupType.INCREMENTAL);
        long bound = objectBound(RETAINED, MAX_CONCURRENT, KEYS);
        long started = System.currentTimeMillis();
        try (S3ProxyServer s3 = S3ProxyServer.start("storage-long-run");
                FaultCluster cluster = FaultCluster.start("storage-long-run", 1, 1, 0);
                ChaosPipeline pipeline = ChaosPipeline.start(cluster, "storage-long-run",
                        new InputEvents(EVENTS, KEYS), Map.of(), PipelineStorage.s3(s3), checkpointing)) {
            System.out.printf("[storage] %s, %,d events over %d keys over %s, a graceful restart every %s (seed %d); "
                    + "object bound %,d%n", checkpointing, EVENTS, KEYS, PRODUCE_OVER, RESTART_EVERY, seed, bound);
            Awaitility.await("the pipeline completes its first checkpoint").atMost(WAIT)
                    .pollInterval(Duration.ofMillis(100)).until(() -> !pipeline.completed().isEmpty());

            List<BucketSamples.Sample> samples;
            List<String> restarted;
            try (BucketSamples bucket = BucketSamples.start(pipeline, SAMPLE_EVERY)) {
                pipeline.produceInSlices(SLICES, PRODUCE_OVER.dividedBy(SLICES));
                restarted = restartUntilDone(pipeline, new Random(seed));
                samples = bucket.samples();
            }
            ExactlyOnceCheck.Report check = drainAndCheck(pipeline);
            StorageAudit audit = StorageAudit.of(pipeline, cluster);
            S3ProxyServer.StoredObjects last = pipeline.storage.stored(pipeline.jobId).orElseThrow();

            long maxObjects = samples.stream().mapToLong(BucketSamples.Sample::objects).max().orElse(0);
            long maxBytes = samples.stream().mapToLong(BucketSamples.Sample::bytes).max().orElse(0);
            int third = samples.size() / 3;
            long firstThird = samples.subList(0, third).stream().mapToLong(BucketSamples.Sample::bytes).max()
                    .orElse(0);
            long lastThird = samples.subList(samples.size() - third, samples.size()).stream()
                    .mapToLong(BucketSamples.Sample::bytes).max().orElse(0);
            System.out.printf("[storage] checkpoints: %d completed, %d aborted; restarts: %d %s; samples: %d, every "
                    + "%s; objects: max %,d, last %,d (bound %,d); bytes: max %,d, last %,d, max of the first third "
                    + "%,d, of the last third %,d; took %.1f s%n", pipeline.completed().size(),
                    pipeline.aborted().size(), restarted.size(), restarted, samples.size(), SAMPLE_EVERY, maxObjects,
                    last.count(), bound, maxBytes, last.bytes(), firstThird, lastThird,
                    (System.currentTimeMillis() - started) / 1000.0);
            System.out.println("[storage] samples: " + samples);
            System.out.println("[storage] " + WorkerFailures.of(pipeline.workers));
            System.out.println("[storage] left in the bucket after the job finished: " + audit);
            System.out.println("[storage] " + check);

            assertThat(pipeline.completed().size()).isGreaterThanOrEqualTo(CHECKPOINTS);
            assertThat(restarted).as("restarts").isNotEmpty();
            assertThat(samples).as("samples").hasSizeGreaterThanOrEqualTo(6);
            assertThat(audit.notDeleted()).as("every object the coordinator discarded was deleted: %s", audit)
                    .isZero();
            assertThat((long) audit.kept()).as("what is kept fits the job's bound: %s", audit)
                    .isLessThanOrEqualTo(bound);
            assertThat(audit.orphaned()).as("only snapshots written but never acknowledged (at most one per subtask "
                    + "and restart) are left unknown to the coordinator: %s", audit)
                    .isLessThanOrEqualTo((restarted.size() + 1) * orphansPerRestart());
            assertThat(check.passed()).as(check.toString()).isTrue();
        }
    }

    /**
     * The objects one restart may leave written but unacknowledged: for each snapshot in flight, a subtask's state
     * file, its sink part, and the key groups a count subtask wrote (at most its share of the keys' groups).
     */
    static int orphansPerRestart() {
        return MAX_CONCURRENT * (2 + KEYS / PipelineTopology.PARALLELISM);
    }

    /**
     * The most objects the job's prefix may hold at any moment: the own objects (one state per subtask, and a sink's
     * output part) and the key groups of the count subtasks, of every checkpoint that may exist at once: the retained
     * ones, the ones in flight, and one more whose discard is decided but not carried out yet (the workers delete
     * what the coordinator discards, asynchronously). A count subtask refers to at most {@value #KEY_GROUPS} groups,
     * and only to groups that hold a key: with {@code keys} keys, at most {@code keys} groups over both subtasks.
     */
    static long objectBound(int retained, int maxConcurrent, int keys) {
        int subtasks = PipelineTopology.tasks().size() * PipelineTopology.PARALLELISM;
        int outputParts = PipelineTopology.PARALLELISM;
        int keyGroups = Math.min(KEY_GROUPS * PipelineTopology.PARALLELISM, keys);
        int checkpoints = retained + maxConcurrent + 1;
        return (long) checkpoints * (subtasks + outputParts + keyGroups);
    }

    /**
     * Restarts a random worker gracefully every {@link #RESTART_EVERY} until {@link #CHECKPOINTS} checkpoints
     * completed and the input is produced, each once the job recovered from the one before (a checkpoint triggered
     * after the new process started completed); answers the workers restarted, in order.
     */
    private static List<String> restartUntilDone(ChaosPipeline pipeline, Random random) {
        List<String> restarted = new ArrayList<>();
        long deadline = System.nanoTime() + RUN_AT_MOST.toNanos();
        while (!done(pipeline)) {
            assertThat(System.nanoTime()).as("the run ends within %s", RUN_AT_MOST).isLessThan(deadline);
            try {
                Awaitility.await().atMost(RESTART_EVERY).pollInterval(Duration.ofMillis(500))
                        .until(() -> done(pipeline));
            } catch (ConditionTimeoutException e) {
                String role = PipelineTopology.tasks().get(random.nextInt(PipelineTopology.tasks().size()));
                int subtask = random.nextInt(PipelineTopology.PARALLELISM);
                Instant at = Instant.now();
                pipeline.workers.restart(role, subtask);
                restarted.add(role + "-" + subtask);
                Instant startedAgain = Awaitility.await(role + "-" + subtask + " starts again").atMost(WAIT)
                        .until(() -> startedAfter(pipeline, role + "-" + subtask, at), Optional::isPresent)
                        .orElseThrow();
                assertThat(pipeline.awaitCompletedTriggeredAfter(startedAgain, WAIT))
                        .as("a checkpoint completes after %s-%d restarted", role, subtask).isPresent();
            }
        }
        return restarted;
    }

    private static boolean done(ChaosPipeline pipeline) {
        return pipeline.producedAll() && pipeline.completed().size() >= CHECKPOINTS;
    }

    private static Optional<Instant> startedAfter(ChaosPipeline pipeline, String worker, Instant at) {
        return pipeline.workers.events().stream().filter(e -> e.worker().equals(worker)
                && e.kind() == PipelineProcesses.Kind.STARTED && !e.at().isBefore(at))
                .map(PipelineProcesses.Event::at).findFirst();
    }

    /**
     * Stops the job with a savepoint that drains it; a stop that fails (a worker that restarted by itself, a sink
     * whose commit Kafka refused, say, declines it and the job runs on) is asked for again once a checkpoint
     * triggered after it completed, {@value #STOP_ATTEMPTS} times at most. Answers the last outcome.
     */
    private static RequestOutcome stopWithDrain(ChaosPipeline pipeline) {
        RequestOutcome stop = null;
        for (int attempt = 1; attempt <= STOP_ATTEMPTS; attempt++) {
            String requestId = pipeline.requestStop(true, pipeline.savepointTarget("final-" + attempt));
            stop = Awaitility.await("the final stop-with-savepoint ends").atMost(WAIT)
                    .until(() -> pipeline.outcome(requestId), Optional::isPresent).orElseThrow();
            System.out.println("[storage] stop-with-savepoint (drain) #" + attempt + ": " + stop);
            if (stop.getStatus() == RequestStatus.COMPLETED) {
                return stop;
            }
            pipeline.awaitCompletedTriggeredAfter(Instant.now(), WAIT);
        }
        return stop;
    }

    /**
     * Waits for every key's final count, stops the job with a drain, waits for every worker to exit, and checks the
     * whole output.
     */
    private static ExactlyOnceCheck.Report drainAndCheck(ChaosPipeline pipeline) {
        ExactlyOnceCheck check = new ExactlyOnceCheck(pipeline.input.expectedCounts());
        try (ResultsReader results = new ResultsReader(pipeline.bootstrapServers(), pipeline.topology.resultsTopic(),
                check)) {
            Awaitility.await("the output reaches every key's count").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
                    .until(() -> results.readToEnd() >= 0 && check.reached());
            RequestOutcome stop = stopWithDrain(pipeline);
            assertThat(stop.getStatus()).as(stop.toString()).isEqualTo(RequestStatus.COMPLETED);
            Awaitility.await("every worker exits after the stop").atMost(WAIT).until(() -> PipelineTopology.tasks()
                    .stream().allMatch(role -> pipeline.workers.finished(role, 0).isPresent()
                            && pipeline.workers.finished(role, 1).isPresent()));
            results.readToEnd();
            return check.report();
        }
    }
}
