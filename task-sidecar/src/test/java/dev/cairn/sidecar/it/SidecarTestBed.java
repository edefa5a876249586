package dev.cairn.sidecar.it;

import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;

/**
 * Shared plumbing of the sidecar's broker-backed tests: a real coordinator ({@link CoordinatorApp}) on the
 * shared test broker, on topics of its own, plus what users do (register jobs, change their status), sidecars
 * started against it (closed with the bed), and readers of the journal and the control topic.
 *
 * <p>Typical use, one bed per test class:
 * <pre>{@code
 * @ExtendWith(KafkaClusterExtension.class)
 * class MyIT {
 *     @TempDir static Path stateDir;
 *     static SidecarTestBed bed;
 *     @BeforeAll static void start(KafkaCluster kafka) { bed = new SidecarTestBed(kafka, stateDir); }
 *     @AfterAll static void stop() { bed.close(); }
 *
 *     @Test void something() {
 *         String job = SidecarTestBed.uniqueJobId("x");
 *         bed.register(SidecarTestBed.job(job, 200, 10_000, "source", "sink"));
 *         bed.startSidecar(job, "source", 0, RecordingHook.acking());
 *         Sidecar sink = bed.startSidecar(bed.sidecarConfig(job, "sink", 0).withHttpHook(url, timeout));
 *         bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));
 *     }
 * }
 * }</pre>
 */
public final class SidecarTestBed implements AutoCloseable {

    /** How long the helpers wait for an event. */
    public static final Duration WAIT = Duration.ofSeconds(60);
    /** Partitions of every topic: several, so that jobs land on different partitions. */
    public static final int PARTITIONS = 3;

    private final KafkaCluster kafka;
    private final CairnTopics topics = new CairnTopics("it-sidecar-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private final CoordinatorApp coordinator;
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final TopicTail<JournalEnvelope> journal;
    private final TopicTail<ControlEnvelope> control;
    private final List<Sidecar> sidecars = new CopyOnWriteArrayList<>();
    private final List<String> jobs = new CopyOnWriteArrayList<>();

    /** Starts a coordinator (3 partitions per topic, tick 50 ms, commit 20 ms) and waits until it runs. */
    public SidecarTestBed(KafkaCluster kafka, Path stateDir) {
        this.kafka = kafka;
        CoordinatorConfig config = new CoordinatorConfig(kafka.bootstrapServers(), "coordinator-" + UUID.randomUUID(),
                topics, PARTITIONS, (short) 1, stateDir, Duration.ofMillis(50), Duration.ofMillis(20), Map.of());
        this.coordinator = CoordinatorApp.start(config);
        Awaitility.await().atMost(WAIT).until(() -> coordinator.streams().state() == KafkaStreams.State.RUNNING);
        this.requests = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(),
                CairnSerdes.requests().serializer());
        this.journal = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.journal(),
                CairnSerdes.journal().deserializer(), JournalEnvelope::getEvent);
        this.control = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.control(),
                CairnSerdes.control().deserializer(), ControlEnvelope::getEvent);
    }

    /** A job id no other test uses. */
    public static String uniqueJobId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A job whose tasks each have parallelism 1 (triggered, acknowledging, notified), 100 tolerable failures. */
    public static JobSpec job(String jobId, long intervalMs, long timeoutMs, String... taskIds) {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (String taskId : taskIds) {
            parallelism.put(taskId, 1);
        }
        return job(jobId, intervalMs, timeoutMs, parallelism);
    }

    /** A job with the given parallelism per task (in map order), 100 tolerable failures, 1 retained checkpoint. */
    public static JobSpec job(String jobId, long intervalMs, long timeoutMs, Map<String, Integer> parallelism) {
        List<TaskVertex> vertices = new ArrayList<>();
        parallelism.forEach((taskId, count) ->
                vertices.add(TaskVertex.newBuilder().setTaskId(taskId).setParallelism(count).build()));
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(intervalMs).setTimeoutMs(timeoutMs)
                        .setTolerableFailures(100).setStorageBaseLocation("file:///cairn-it").build())
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    /** Produces the job spec to the requests topic. */
    public void register(JobSpec spec) {
        send(spec.getJobId(), new RequestEnvelope(spec));
        jobs.add(spec.getJobId());
    }

    /**
     * Closes the sidecars started so far and suspends the jobs registered so far, so that a test class's next
     * test runs without the previous one's load (call it {@code @AfterEach}).
     */
    public void stopSidecarsAndJobs() {
        sidecars.forEach(Sidecar::close);
        sidecars.clear();
        jobs.forEach(job -> changeStatus(job, JobStatus.SUSPENDED));
        jobs.clear();
    }

    public void changeStatus(String jobId, JobStatus status) {
        send(jobId, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(jobId).setStatus(status)
                .setTimestampMs(System.currentTimeMillis()).build()));
    }

    /** A Java-hook sidecar config for the test broker and this bed's topics (snapshot timeout 30 s). */
    public SidecarConfig sidecarConfig(String jobId, String taskId, int subtaskIndex) {
        return SidecarConfig.forTask(kafka.bootstrapServers(), jobId, taskId, subtaskIndex).withTopics(topics)
                .withSnapshotTimeout(Duration.ofSeconds(30)).withStartupTimeout(WAIT);
    }

    /** Starts a sidecar with {@link #sidecarConfig} and {@code hook}; it is closed with the bed. */
    public Sidecar startSidecar(String jobId, String taskId, int subtaskIndex, SnapshotHook hook) {
        return track(Sidecar.start(sidecarConfig(jobId, taskId, subtaskIndex), hook));
    }

    /** Starts a sidecar with {@code config} and {@code hook}; it is closed with the bed. */
    public Sidecar startSidecar(SidecarConfig config, SnapshotHook hook) {
        return track(Sidecar.start(config, hook));
    }

    /** Starts a sidecar with the hook {@code config} names (HTTP, command, a class); it is closed with the bed. */
    public Sidecar startSidecar(SidecarConfig config) {
        return track(Sidecar.start(config));
    }

    private Sidecar track(Sidecar sidecar) {
        sidecars.add(sidecar);
        return sidecar;
    }

    /** Waits for the first journal event (from the beginning) of {@code type} that matches. */
    public <T> T awaitJournal(Class<T> type, Predicate<T> matching) {
        return journal.await(type, matching, WAIT);
    }

    /** Waits for the first control event (from the beginning) of {@code type} that matches. */
    public <T> T awaitControl(Class<T> type, Predicate<T> matching) {
        return control.await(type, matching, WAIT);
    }

    /**
     * The subtask states of a completed checkpoint: the acks the journal accepted for it (a completion carries
     * only their count), as a restore would hand them out.
     */
    public List<SubtaskState> states(CheckpointCompleted completed) {
        return journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(completed.getJobId())
                && a.getCheckpointId() == completed.getCheckpointId()).stream()
                .map(a -> new SubtaskState(a.getTaskId(), a.getSubtaskIndex(), a.getAttemptId(), a.getStateHandle()))
                .toList();
    }

    /** Every journal event of {@code type} that matches, read so far (reads what is new first). */
    public <T> List<T> journal(Class<T> type, Predicate<T> matching) {
        return journal.all(type, matching);
    }

    public CairnTopics topics() {
        return topics;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public CoordinatorApp coordinator() {
        return coordinator;
    }

    private void send(String key, RequestEnvelope value) {
        try {
            requests.send(new ProducerRecord<>(topics.requests(), key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topics.requests(), e);
        }
    }

    /** Closes the sidecars it started, the readers and the coordinator. */
    @Override
    public void close() {
        sidecars.forEach(Sidecar::close);
        requests.close();
        journal.close();
        control.close();
        coordinator.close();
    }
}
