package dev.cairn.coordinator.bench;

import static dev.cairn.coordinator.bench.BenchmarkReport.format;
import static dev.cairn.coordinator.bench.BenchmarkReport.percentile;

import dev.cairn.coordinator.bench.BenchmarkReport.Breakdown;
import dev.cairn.coordinator.bench.BenchmarkReport.LatencyResult;
import dev.cairn.coordinator.bench.BenchmarkReport.ThroughputResult;

import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.kafka.test.TopicTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * End-to-end benchmark of the coordinator: a real in-JVM KRaft broker ({@link EmbeddedKafkaBroker}) and a real
 * {@link CoordinatorApp} ({@code exactly_once_v2}, {@link CoordinatorConfig#forLocalBroker} settings: 3 partitions,
 * commit interval 20 ms, tick 50 ms), driven the way sidecars drive it: records on {@code cairn.requests} and
 * {@code cairn.acks}, notifications read from {@code cairn.control} with {@code read_committed}.
 *
 * <h2>What it measures</h2>
 * <ol>
 *   <li><b>Ack throughput per checkpoint size.</b> For each task count N (flag {@code --tasks}) a fresh job is
 *       registered and its N subtasks are started (TaskStarted); then, for each checkpoint: a manual
 *       {@link TriggerRequest} is produced, the benchmark waits for the {@link CheckpointTriggered} carrying that
 *       request id on {@code cairn.control}, produces all N acks as fast as a batching producer can (linger
 *       {@code --linger-ms}), and waits for the {@link CheckpointCompleted}. The clock runs from just before the
 *       first ack is sent to the moment the completion is read. Reported: acks/s = N / that time (median over
 *       the measured checkpoints), the implied cost per ack (1 / acks/s) and the marginal cost per ack between
 *       consecutive task counts ((T(N2) - T(N1)) / (N2 - N1)), which removes the fixed per-checkpoint latency
 *       (EOS commit, fetch waits) that dominates small checkpoints. A flat marginal cost means an ack does not
 *       get more expensive as the checkpoint grows.</li>
 *   <li><b>Completion latency.</b> A job of {@code --latency-tasks} subtasks runs {@code --latency-checkpoints}
 *       checkpoints one after the other; per checkpoint the time from the last ack being handed to the producer
 *       (followed at once by {@code flush()}) to the completion notification being returned by the control
 *       consumer's {@code poll}. Reported: p50, p99, max (and the trigger latency, request produced to
 *       CheckpointTriggered consumed, as a by-product).</li>
 * </ol>
 *
 * <h2>Choices</h2>
 * <ul>
 *   <li>Checkpoints are triggered manually ({@link TriggerRequest} with a unique request id) rather than
 *       periodically: the benchmark then knows which checkpoint belongs to which measurement, never waits for a
 *       schedule, and never races a periodic trigger. The job's interval is one year, so the periodic schedule
 *       (first trigger after a random delay in [0, interval]) practically never fires during a run; if it ever
 *       did, that checkpoint carries no request id and is ignored, and the manual request queues behind it.</li>
 *   <li>Layout ({@code --layout}): {@code vertex} (default) = one vertex with parallelism N, so the job spec has
 *       a constant size; {@code vertices} = N vertices of parallelism 1, so the job spec grows with N
 *       (it has its own store: an ack reads only its vertex). Both are legitimate Flink job shapes.</li>
 *   <li>Acks carry short ids and locations (a 10,000-subtask CheckpointCompleted must stay below the 1 MiB
 *       default record size limit); the per-ack work of the coordinator does not depend on those lengths.</li>
 *   <li>The producers, the consumer, the broker and the coordinator share one JVM and the machine's cores; the
 *       figures are for the whole system, not for the coordinator alone.</li>
 * </ul>
 *
 * <h2>How to run</h2>
 * From the repository root, after {@code mvn -B -q install -DskipTests}:
 * <pre>
 * mvn -B -q -pl coordinator-service exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.cairn.coordinator.bench.CoordinatorBenchmark \
 *     -Dexec.args="--tasks=10,1000,10000 --checkpoints=5 --warmup=2 --latency-checkpoints=200"
 * </pre>
 * (the arguments shown are the defaults; about two minutes on 2 cores). Run it three times and take medians:
 * on a shared 2-core machine single runs vary by ±30 %. Besides the table, each task count prints its
 * per-checkpoint figures, where the time went (see {@code --breakdown}) and the coordinator's Kafka Streams
 * commit count and latency during the ack phases ({@code stream-thread-metrics}).
 *
 * <h2>Flags</h2>
 * <ul>
 *   <li>{@code --tasks=10,1000,10000}: task counts (acks per checkpoint) of the throughput part; empty skips
 *       it.</li>
 *   <li>{@code --checkpoints=5}: measured checkpoints per task count.</li>
 *   <li>{@code --warmup=2}: unmeasured checkpoints before them, per task count (JIT, RocksDB, fetch sessions).</li>
 *   <li>{@code --layout=vertex|vertices}: one vertex of parallelism N, or N vertices of parallelism 1.</li>
 *   <li>{@code --latency-checkpoints=200}: checkpoints of the latency part; 0 skips it.</li>
 *   <li>{@code --latency-tasks=10}: subtasks of the latency job.</li>
 *   <li>{@code --latency-warmup=20}: unmeasured checkpoints before the latency measurement.</li>
 *   <li>{@code --linger-ms=5}: the ack producer's {@code linger.ms} (batch.size is 256 KiB).</li>
 *   <li>{@code --commit-interval-ms=20}: the coordinator's Kafka Streams commit interval.</li>
 *   <li>{@code --fetch-max-wait-ms=10}: {@code fetch.max.wait.ms} of the benchmark's control consumer.</li>
 *   <li>{@code --timeout-s=120}: give up when a trigger or completion takes longer than this.</li>
 *   <li>{@code --streams-config=key=value;key=value}: extra client properties for the coordinator
 *       ({@link CoordinatorConfig#kafkaProperties()}, applied over its Kafka Streams defaults), e.g.
 *       {@code poll.ms=10}; empty (default) runs the coordinator exactly as configured.</li>
 *   <li>{@code --breakdown=true}: after each throughput checkpoint (outside the clock), read the journal and
 *       split the ack phase into pickup (first ack sent to first ack processed), processing (first ack
 *       processed to completion decided, from the journal's record timestamps, which are the coordinator's
 *       processing times) and visibility (completion decided to completion read). Processing / (N - 1) is the
 *       coordinator's own cost per ack, the figure that must stay flat.</li>
 * </ul>
 * The last lines of the output ({@code RESULT ...}) are one line per figure, for scripts.
 */
public final class CoordinatorBenchmark {

    private static final long ONE_YEAR_MS = 365L * 24 * 3600 * 1000;

    private final BenchmarkOptions options;
    private final String bootstrap;
    private final CoordinatorApp coordinator;
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final KafkaProducer<String, AckEnvelope> acks;
    private final TopicTail<ControlEnvelope> control;

    private CoordinatorBenchmark(BenchmarkOptions options, String bootstrap, CoordinatorApp coordinator) {
        this.options = options;
        this.bootstrap = bootstrap;
        this.coordinator = coordinator;
        this.requests = new KafkaProducer<>(producerProps(0), new StringSerializer(),
                CairnSerdes.requests().serializer());
        this.acks = new KafkaProducer<>(producerProps(options.lingerMs), new StringSerializer(),
                CairnSerdes.acks().serializer());
        this.control = TopicTail.fromEnd(bootstrap, coordinator.config().topics().control(),
                CairnSerdes.control().deserializer(), ControlEnvelope::getEvent, readerSettings(options));
    }

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args);
        if (options == null) {
            return;
        }
        quietOperatorLog();
        long started = System.nanoTime();
        Path stateDir = Files.createTempDirectory("cairn-bench-state");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            CoordinatorConfig base = CoordinatorConfig.forLocalBroker(broker.bootstrapServers(),
                    "cairn-bench-" + UUID.randomUUID(), stateDir);
            CoordinatorConfig config = new CoordinatorConfig(base.bootstrapServers(), base.applicationId(),
                    base.topics(), base.partitions(), base.replicationFactor(), base.stateDir(), base.tickInterval(),
                    Duration.ofMillis(options.commitIntervalMs), options.streamsConfig);
            CoordinatorApp app = CoordinatorApp.start(config);
            try {
                new CoordinatorBenchmark(options, broker.bootstrapServers(), app).run(started);
            } finally {
                app.close();
            }
        } finally {
            deleteRecursively(stateDir);
        }
    }

    private void run(long started) {
        List<ThroughputResult> throughput = new ArrayList<>();
        for (int tasks : options.tasks) {
            throughput.add(measureThroughput(tasks));
        }
        LatencyResult latency = options.latencyCheckpoints > 0 ? measureLatency() : null;
        close();
        BenchmarkReport.printSummary(options, throughput, latency, (System.nanoTime() - started) / 1e9);
    }

    // ---------------------------------------------------------------- throughput

    private ThroughputResult measureThroughput(int tasks) {
        int total = options.warmup + options.checkpoints;
        List<Double> ackPhaseMs = new ArrayList<>();
        List<Double> sendMs = new ArrayList<>();
        List<Breakdown> breakdowns = new ArrayList<>();
        List<Double> commits = new ArrayList<>();
        List<Double> processed = new ArrayList<>();
        List<Double> commitMs = new ArrayList<>();
        try (Job job = startJob("tput-" + tasks, tasks)) {
            for (int i = 0; i < total; i++) {
                CheckpointTriggered triggered = trigger(job);
                Map<String, Double> before = threadMetrics();
                long firstWallMs = System.currentTimeMillis();
                long first = System.nanoTime();
                sendAcks(job, triggered.getCheckpointId());
                long sent = System.nanoTime();
                awaitCompleted(job, triggered.getCheckpointId());
                long done = System.nanoTime();
                long doneWallMs = System.currentTimeMillis();
                Map<String, Double> after = threadMetrics();
                // Outside the clock: where the time went, from the journal's record timestamps.
                Breakdown breakdown = options.breakdown
                        ? breakdown(job, triggered.getCheckpointId(), firstWallMs, doneWallMs) : null;
                if (i >= options.warmup) {
                    ackPhaseMs.add((done - first) / 1e6);
                    sendMs.add((sent - first) / 1e6);
                    if (breakdown != null) {
                        breakdowns.add(breakdown);
                    }
                    commits.add(after.get("commit-total") - before.get("commit-total"));
                    processed.add(after.get("process-total") - before.get("process-total"));
                    commitMs.add(after.get("commit-latency-avg"));
                }
            }
        }
        ThroughputResult result = new ThroughputResult(tasks, ackPhaseMs, sendMs, breakdowns);
        System.out.printf(Locale.ROOT, "tasks=%d: ack phase per checkpoint (ms) %s -> median %.1f ms, %.0f acks/s%n",
                tasks, format(ackPhaseMs), result.medianMs(), result.acksPerSecond());
        if (!breakdowns.isEmpty()) {
            System.out.printf(Locale.ROOT, "tasks=%d: first ack picked up after %s ms, acks processed in %s ms,"
                    + " completion visible after %s ms%n", tasks,
                    format(breakdowns.stream().map(b -> (double) b.pickupMs()).toList()),
                    format(breakdowns.stream().map(b -> (double) b.processMs()).toList()),
                    format(breakdowns.stream().map(b -> (double) b.visibleMs()).toList()));
        }
        System.out.printf(Locale.ROOT, "tasks=%d: Kafka Streams commits during the ack phase %s, records processed %s,"
                + " commit latency avg (ms) %s%n", tasks, format(commits), format(processed), format(commitMs));
        return result;
    }

    /** Totals and averages of the coordinator's stream thread(s) ({@code stream-thread-metrics}), summed. */
    private Map<String, Double> threadMetrics() {
        Map<String, Double> values = new HashMap<>();
        coordinator.streams().metrics().forEach((name, metric) -> {
            if (name.group().equals("stream-thread-metrics") && metric.metricValue() instanceof Number number) {
                values.merge(name.name(), number.doubleValue(), Double::sum);
            }
        });
        return values;
    }

    /**
     * Where the ack phase of one checkpoint went, in wall-clock ms: the coordinator stamps every journal record
     * with the time it processed the command, so the first accepted ack and the completion (decided while
     * processing the last ack) bound the coordinator's processing of the checkpoint's acks.
     *
     * @param pickupMs first ack sent -> first ack processed
     * @param processMs first ack processed -> last ack processed (the completion)
     * @param visibleMs completion decided -> completion read by the control consumer (EOS commit, fetch)
     */

    private Breakdown breakdown(Job job, long checkpointId, long firstSentWallMs, long consumedWallMs) {
        long[] firstProcessed = {Long.MAX_VALUE};
        int[] discarded = {0};
        ConsumerRecord<String, JournalEnvelope> completed = job.journal().awaitNextRecord(record -> {
            Object event = record.value().getEvent();
            if (event instanceof CheckpointAcknowledged a && a.getJobId().equals(job.id())
                    && a.getCheckpointId() == checkpointId) {
                firstProcessed[0] = Math.min(firstProcessed[0], record.timestamp());
            } else if (event instanceof AckDiscarded d && d.getJobId().equals(job.id())) {
                discarded[0]++;
            }
            return event instanceof CheckpointCompleted c && c.getJobId().equals(job.id())
                    && c.getCheckpointId() == checkpointId;
        }, timeout(), "journal entry of the completion of " + checkpointId);
        if (discarded[0] > 0) {
            System.err.println(discarded[0] + " acks of " + job.id() + " were discarded");
        }
        return new Breakdown(firstProcessed[0] - firstSentWallMs, completed.timestamp() - firstProcessed[0],
                consumedWallMs - completed.timestamp(), discarded[0]);
    }

    // ---------------------------------------------------------------- latency

    private LatencyResult measureLatency() {
        List<Double> completion = new ArrayList<>();
        List<Double> trigger = new ArrayList<>();
        List<Double> decided = new ArrayList<>();
        List<Double> visible = new ArrayList<>();
        int total = options.latencyWarmup + options.latencyCheckpoints;
        try (Job job = startJob("latency", options.latencyTasks)) {
            for (int i = 0; i < total; i++) {
                long requested = System.nanoTime();
                CheckpointTriggered triggered = trigger(job);
                long triggeredAt = System.nanoTime();
                long last = sendAcks(job, triggered.getCheckpointId());
                long lastWallMs = System.currentTimeMillis() - (System.nanoTime() - last) / 1_000_000;
                awaitCompleted(job, triggered.getCheckpointId());
                long done = System.nanoTime();
                long doneWallMs = System.currentTimeMillis();
                Breakdown breakdown = options.breakdown
                        ? breakdown(job, triggered.getCheckpointId(), lastWallMs, doneWallMs) : null;
                if (i >= options.latencyWarmup) {
                    completion.add((done - last) / 1e6);
                    trigger.add((triggeredAt - requested) / 1e6);
                    if (breakdown != null) {
                        decided.add((double) breakdown.pickupMs() + breakdown.processMs());
                        visible.add((double) breakdown.visibleMs());
                    }
                }
            }
        }
        LatencyResult result = new LatencyResult(options.latencyTasks, completion, trigger);
        System.out.printf(Locale.ROOT, "latency job (%d tasks, %d checkpoints): completion p50 %.1f ms, p99 %.1f ms%n",
                options.latencyTasks, completion.size(), result.completion(50), result.completion(99));
        if (!decided.isEmpty()) {
            System.out.printf(Locale.ROOT, "latency job: last ack sent -> completion decided (journal timestamp) p50 %.0f ms,"
                    + " p99 %.0f ms; decided -> consumed p50 %.0f ms, p99 %.0f ms%n", percentile(decided, 50),
                    percentile(decided, 99), percentile(visible, 50), percentile(visible, 99));
        }
        return result;
    }

    // ---------------------------------------------------------------- driving the coordinator

    /**
     * A registered job whose subtasks all run: every vertex has the same parallelism. Its journal reader is
     * positioned after the job's TaskStarted events.
     */
    private record Job(String id, List<String> taskIds, int parallelism, TopicTail<JournalEnvelope> journal)
            implements AutoCloseable {
        int subtasks() {
            return taskIds.size() * parallelism;
        }

        @Override
        public void close() {
            journal.close();
        }
    }

    /** Registers a job of {@code subtasks} subtasks, starts them all, and waits until the coordinator saw them. */
    private Job startJob(String name, int subtasks) {
        String jobId = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        boolean oneVertex = options.layout.equals("vertex");
        List<String> taskIds = new ArrayList<>();
        if (oneVertex) {
            taskIds.add("worker");
        } else {
            for (int i = 0; i < subtasks; i++) {
                taskIds.add("t" + i);
            }
        }
        int parallelism = oneVertex ? subtasks : 1;
        int expected = taskIds.size() * parallelism;
        List<TaskVertex> vertices = taskIds.stream()
                .map(t -> TaskVertex.newBuilder().setTaskId(t).setParallelism(parallelism).build()).toList();
        JobSpec spec = JobSpec.newBuilder().setJobId(jobId).setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(ONE_YEAR_MS).setTimeoutMs(600_000)
                        .setMaxConcurrent(1).setTolerableFailures(1_000).setRetained(1)
                        .setStorageBaseLocation("file:///b").build())
                .setTimestampMs(System.currentTimeMillis()).build();
        long t0 = System.nanoTime();
        TopicTail<JournalEnvelope> journal = TopicTail.fromEnd(bootstrap, coordinator.config().topics().journal(),
                CairnSerdes.journal().deserializer(), JournalEnvelope::getEvent, readerSettings(options));
        {
            send(requests, coordinator.config().topics().requests(), jobId, new RequestEnvelope(spec));
            requests.flush();
            // Requests and acks are separate topics: a TaskStarted could overtake the JobSpec, so wait for it.
            journal.awaitNext(JobSpec.class, s -> s.getJobId().equals(jobId), timeout());
            for (String taskId : taskIds) {
                for (int s = 0; s < parallelism; s++) {
                    send(acks, coordinator.config().topics().acks(), jobId, new AckEnvelope(TaskStarted.newBuilder()
                            .setJobId(jobId).setTaskId(taskId).setSubtaskIndex(s).setAttemptId(attempt(taskId, s))
                            .setTimestampMs(System.currentTimeMillis()).build()));
                }
            }
            acks.flush();
            Set<String> seen = new HashSet<>();
            journal.awaitNext(SpecificRecord.class, event -> {
                if (event instanceof TaskStarted t && t.getJobId().equals(jobId)) {
                    seen.add(t.getTaskId() + "/" + t.getSubtaskIndex());
                } else if (event instanceof CommandRejected r && r.getJobId().equals(jobId)) {
                    throw new IllegalStateException("coordinator rejected a command of " + jobId + ": " + r);
                }
                return seen.size() == expected;
            }, timeout());
        }
        Job job = new Job(jobId, taskIds, parallelism, journal);
        System.out.printf(Locale.ROOT, "job %s: %d subtasks (%s) registered and started in %.1f s%n", jobId,
                job.subtasks(), options.layout, (System.nanoTime() - t0) / 1e9);
        return job;
    }

    /** Produces a manual trigger request and waits for the checkpoint it triggered. */
    private CheckpointTriggered trigger(Job job) {
        String requestId = UUID.randomUUID().toString();
        send(requests, coordinator.config().topics().requests(), job.id(), new RequestEnvelope(TriggerRequest.newBuilder()
                .setJobId(job.id()).setRequestId(requestId).setType(CheckpointType.CHECKPOINT).setForce(false)
                .setRequester("benchmark").setTimestampMs(System.currentTimeMillis()).build()));
        requests.flush();
        return control.awaitNext(CheckpointTriggered.class, t -> {
            return t.getJobId().equals(job.id()) && requestId.equals(t.getRequestId());
        }, timeout());
    }

    /** Produces every ack of the checkpoint, then flushes; returns the nanoTime just before the last send. */
    private long sendAcks(Job job, long checkpointId) {
        String topic = coordinator.config().topics().acks();
        long last = 0;
        int n = job.subtasks();
        int i = 0;
        for (String taskId : job.taskIds()) {
            for (int s = 0; s < job.parallelism(); s++) {
                if (++i == n) {
                    last = System.nanoTime();
                }
                acks.send(new ProducerRecord<>(topic, job.id(), new AckEnvelope(CheckpointAcknowledged.newBuilder()
                        .setJobId(job.id()).setCheckpointId(checkpointId).setTaskId(taskId).setSubtaskIndex(s)
                        .setAttemptId(attempt(taskId, s))
                        .setStateHandle(StateHandle.newBuilder().setLocation("c" + checkpointId + "/" + s)
                                .setSizeBytes(1_000).build())
                        .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2).build())
                        .setTimestampMs(System.currentTimeMillis()).build())), (metadata, error) -> {
                            if (error != null) {
                                System.err.println("ack not produced: " + error);
                            }
                        });
            }
        }
        acks.flush();
        return last;
    }

    private void awaitCompleted(Job job, long checkpointId) {
        SpecificRecord ended = control.awaitNext(SpecificRecord.class, e ->
                (e instanceof CheckpointCompleted c && c.getJobId().equals(job.id()) && c.getCheckpointId() == checkpointId)
                        || (e instanceof CheckpointAborted a && a.getJobId().equals(job.id())
                                && a.getCheckpointId() == checkpointId),
                timeout());
        if (ended instanceof CheckpointAborted aborted) {
            throw new IllegalStateException("checkpoint aborted: " + aborted);
        }
    }

    private static String attempt(String taskId, int subtask) {
        return taskId + "-" + subtask;
    }

    private static <V> void send(KafkaProducer<String, V> producer, String topic, String key, V value) {
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
            if (error != null) {
                System.err.println("cannot produce to " + topic + ": " + error);
            }
        });
    }

    private Map<String, Object> producerProps(int lingerMs) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        return props;
    }

    private Duration timeout() {
        return Duration.ofSeconds(options.timeoutS);
    }

    private static Map<String, Object> readerSettings(BenchmarkOptions options) {
        return Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, options.fetchMaxWaitMs,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
    }

    private void close() {
        requests.close();
        acks.close();
        control.close();
    }


    /** The coordinator logs two lines per checkpoint and one per TaskStarted; keep the output readable. */
    private static void quietOperatorLog() {
        org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger("dev.cairn.coordinator.CheckpointCoordinator");
        if (logger instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
