package dev.cairn.sidecar.it;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.VerifyingDeserializer;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sidecars on the shared test broker with no coordinator: the test writes the control records (and retained
 * checkpoints) the coordinator would write, by hand, and reads what the sidecars publish to the acks topic. For
 * the sidecar's side of behaviour the coordinator does not have yet, or that a test wants to provoke exactly.
 *
 * <p>In: the test's {@link CheckpointTriggered}, {@link ParticipantsTriggered}, {@link CheckpointCompleted},
 * {@link CheckpointAborted}, {@link AckDiscarded}, {@link StateDiscarded} (on the control topic) and
 * {@link RetainedCheckpoints} and {@link RestorePart}s (on the completed topic). Out: every {@link AckEnvelope}
 * event the sidecars publish, read from the beginning and verified as the coordinator verifies them: the sidecars
 * sign with their job's key, and a record that is unsigned or signed with another key fails the read.
 */
public final class ControlRecordsBed implements AutoCloseable {

    /** How long the helpers wait for an event. */
    public static final Duration WAIT = Duration.ofSeconds(60);
    /** How many partitions each of this bed's topics has. */
    private static final int PARTITIONS = 3;

    private final KafkaCluster kafka;
    private final SigningKey master = SigningKey.generate();
    private final CairnTopics topics = new CairnTopics("it-wire-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private final KafkaProducer<String, ControlEnvelope> control;
    private final KafkaProducer<String, RetainedCheckpoints> completed;
    private final KafkaProducer<String, RestorePart> parts;
    private final TopicTail<AckEnvelope> acks;
    private final List<Sidecar> sidecars = new CopyOnWriteArrayList<>();

    /** Creates this bed's topics (3 partitions each) and waits until they take writes. */
    public ControlRecordsBed(KafkaCluster kafka) {
        this.kafka = kafka;
        kafka.createTopics(PARTITIONS, topics.all().toArray(String[]::new));
        this.control = producer(CairnSerdes.control().serializer());
        this.completed = producer(CairnSerdes.retained().serializer());
        this.parts = producer(CairnSerdes.restoreParts().serializer());
        this.acks = TopicTail.fromBeginning(kafka.bootstrapServers(), topics.acks(),
                new VerifyingDeserializer<>(CairnSerdes.acks(), master, EnvelopeJobIds::of), AckEnvelope::getEvent);
    }

    private <V> KafkaProducer<String, V> producer(Serializer<V> values) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), values);
    }

    /** A task sidecar's config on this bed's topics (snapshot timeout 30 s). */
    public SidecarConfig taskConfig(String jobId, String taskId, int subtaskIndex) {
        return onThisBed(SidecarConfig.forTask(kafka.bootstrapServers(), jobId, taskId, subtaskIndex), jobId);
    }

    /** A participant sidecar's config on this bed's topics (snapshot timeout 30 s). */
    public SidecarConfig participantConfig(String jobId, String participant) {
        return onThisBed(SidecarConfig.forParticipant(kafka.bootstrapServers(), jobId, participant), jobId);
    }

    private SidecarConfig onThisBed(SidecarConfig config, String jobId) {
        return SidecarConfigCopies.withStartupTimeout(SidecarConfigCopies.withSnapshotTimeout(
                config.withTopics(topics), Duration.ofSeconds(30)), WAIT).withAuthKey(master.jobKey(jobId));
    }

    /** Starts a sidecar; it is closed after the test. */
    public Sidecar start(SidecarConfig config, SnapshotHook hook) {
        Sidecar sidecar = Sidecar.start(config, hook);
        sidecars.add(sidecar);
        return sidecar;
    }

    /** Starts a sidecar with the hook its config names; it is closed after the test. */
    public Sidecar start(SidecarConfig config) {
        Sidecar sidecar = Sidecar.start(config);
        sidecars.add(sidecar);
        return sidecar;
    }

    /** Writes one event to the control topic, keyed by its job, and waits for the broker to have it. */
    public void control(String jobId, Object event) {
        send(control, topics.control(), jobId, new ControlEnvelope(event));
    }

    /** Writes the job's retained checkpoints to the completed topic. */
    public void retain(RetainedCheckpoints retained) {
        send(completed, topics.completed(), retained.getJobId(), retained);
    }

    /**
     * Writes one restore part of the job's restore point to the completed topic, under its part key, on the job's
     * partition (as the coordinator's partitioner puts it there, whatever the key hashes to).
     */
    public void restorePart(RestorePart part) {
        try {
            parts.send(new ProducerRecord<>(topics.completed(), JobPartitions.of(part.getJobId(), PARTITIONS),
                    CairnTopics.restorePartKey(part.getJobId(), part.getPart()), part)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topics.completed(), e);
        }
    }

    private static <V> void send(KafkaProducer<String, V> producer, String topic, String key, V value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    /** Waits for the first event on the acks topic (from the beginning) of {@code type} that matches. */
    public <T> T awaitAck(Class<T> type, Predicate<T> matching) {
        return acks.await(type, matching, WAIT);
    }

    /** Every acks-topic event of {@code type} that matches, read so far (reads what is new first). */
    public <T> List<T> acks(Class<T> type, Predicate<T> matching) {
        return acks.all(type, matching);
    }

    /**
     * A checkpoint (or savepoint) of {@code jobId} in which every task has the default roles; null options: the
     * defaults.
     */
    public static CheckpointTriggered trigger(String jobId, long id, CheckpointType type, SnapshotOptions options) {
        return CheckpointTriggered.newBuilder().setJobId(jobId).setCheckpointId(id)
                .setTimestampMs(System.currentTimeMillis()).setType(type).setPeriodic(false).setForce(true)
                .setStorageLocation("file:///cairn-it/" + jobId + "/chk-" + id).setPlan(List.of()).setAcksExpected(1)
                .setRoles(List.of()).setTimeoutAtMs(System.currentTimeMillis() + 60_000).setOptions(orDefaults(options))
                .build();
    }

    /** The participants of checkpoint {@code id} of {@code jobId} are triggered. */
    public static ParticipantsTriggered participantsTriggered(String jobId, long id, String... participants) {
        return ParticipantsTriggered.newBuilder().setJobId(jobId).setCheckpointId(id)
                .setTimestampMs(System.currentTimeMillis()).setType(CheckpointType.CHECKPOINT).setPeriodic(true)
                .setForce(false).setStorageLocation("file:///cairn-it/" + jobId + "/chk-" + id)
                .setTimeoutAtMs(System.currentTimeMillis() + 60_000).setOptions(SnapshotOptions.newBuilder().build())
                .setParticipants(List.of(participants)).build();
    }

    /** Checkpoint {@code id} of {@code jobId} completed, as triggered with {@code options} (null: the defaults). */
    public static CheckpointCompleted completed(String jobId, long id, long lastSubsumedId, SnapshotOptions options) {
        return CheckpointCompleted.newBuilder().setJobId(jobId).setCheckpointId(id)
                .setType(options != null && options.getPostCheckpointAction() != PostCheckpointAction.NONE
                        ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cairn-it/" + jobId)
                .setSubtaskStates(List.of()).setTotalSizeBytes(0).setLastSubsumedId(lastSubsumedId).setSubtaskCount(1)
                .setParticipantStates(List.of()).setOptions(orDefaults(options)).build();
    }

    /** Checkpoint {@code id} of {@code jobId} was aborted, as triggered with {@code options} (null: the defaults). */
    public static CheckpointAborted aborted(String jobId, long id, SnapshotOptions options) {
        return CheckpointAborted.newBuilder().setJobId(jobId).setCheckpointId(id).setType(CheckpointType.SAVEPOINT)
                .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED).setMessage("a task declined")
                .setLatestCompletedId(-1).setTimestampMs(1).setOptions(orDefaults(options)).build();
    }

    /** The options a coordinator writes: never none (records without them decode with the defaults). */
    private static SnapshotOptions orDefaults(SnapshotOptions options) {
        return options != null ? options : SnapshotOptions.newBuilder().build();
    }

    /** The coordinator discarded the ack of {@code attempt} for checkpoint {@code id}, with its handle. */
    public static AckDiscarded discarded(TaskAttempt attempt, long id, AckDiscardStatus status, String location) {
        return AckDiscarded.newBuilder().setJobId(attempt.jobId()).setCheckpointId(id).setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex()).setAttemptId(attempt.attemptId()).setStatus(status)
                .setStateHandle(StateHandle.newBuilder().setLocation(location).setSizeBytes(1_000L).build())
                .setMessage("checkpoint " + id + " is unknown")
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    /** The coordinator discarded the state of checkpoint {@code id} of {@code jobId}: {@code objects}, in one part. */
    public static StateDiscarded stateDiscarded(String jobId, long id, DiscardReason reason,
            DiscardedObject... objects) {
        return StateDiscarded.newBuilder().setJobId(jobId).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setReason(reason).setMessage("checkpoint " + id + ": " + reason).setPart(0).setParts(1)
                .setObjects(List.of(objects)).setTimestampMs(System.currentTimeMillis()).build();
    }

    /** An object of the state of subtask {@code subtaskIndex} of {@code taskId}, 500 bytes. */
    public static DiscardedObject subtaskObject(String taskId, int subtaskIndex, String location, boolean shared) {
        return DiscardedObject.newBuilder().setTaskId(taskId).setSubtaskIndex(subtaskIndex).setLocation(location)
                .setSizeBytes(500L).setShared(shared).build();
    }

    /** Closes the sidecars started so far (call it {@code @AfterEach}). */
    public void stopSidecars() {
        sidecars.forEach(Sidecar::close);
        sidecars.clear();
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** This bed's topic names. */
    public CairnTopics topics() {
        return topics;
    }

    @Override
    public void close() {
        stopSidecars();
        control.close();
        completed.close();
        parts.close();
        acks.close();
    }
}
