package dev.cairn.faults;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The sidecars of one job, played by the test: every kind of record a task or participant sidecar produces to
 * {@code cairn.acks}, keyed by the job id and signed with the job's key, as real sidecars sign them, but each sent when
 * the test says so (a decline, a finish, a failed restore on cue). Subtasks of task {@value #KEYED} hold keyed state
 * over all its key groups, the others a {@code UNION} operator state, so that a rescale can hand both out.
 */
final class ScriptedSidecars implements AutoCloseable {

    /** The task whose states are keyed (its max parallelism is Flink's default for parallelism 1: 128). */
    static final String KEYED = "sink";
    private static final int KEY_GROUPS = 128;

    private final String jobId;
    private final String participant;
    private final String storage;
    private final String topic;
    private final KafkaProducer<String, AckEnvelope> producer;
    private final Map<String, String> attempts = new LinkedHashMap<>();
    private final Set<String> finished = new TreeSet<>();
    private long lastStartMs;

    /**
     * Sidecars of {@code jobId} and its participant {@code participant}, writing states under {@code storage}, signing
     * with {@code jobKey}.
     */
    ScriptedSidecars(String bootstrapServers, CairnTopics topics, String jobId, String participant, String storage,
            SigningKey jobKey) {
        this.jobId = jobId;
        this.participant = participant;
        this.storage = storage;
        this.topic = topics.acks();
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.acks().serializer(), jobKey));
    }

    /** Starts a new attempt of the subtask ({@code TaskStarted}, later than every start before it); returns its id. */
    String start(String task, int subtask) {
        String attempt = task + "-" + subtask + "-" + UUID.randomUUID().toString().substring(0, 8);
        lastStartMs = Math.max(System.currentTimeMillis(), lastStartMs + 1);
        attempts.put(task + "/" + subtask, attempt);
        send(TaskStarted.newBuilder().setJobId(jobId).setTaskId(task).setSubtaskIndex(subtask).setAttemptId(attempt)
                .setTimestampMs(lastStartMs).build());
        return attempt;
    }

    /** Every started subtask that has not finished acknowledges checkpoint {@code id} with a state of its own. */
    void acknowledgeAll(long id) {
        for (String subtask : attempts.keySet()) {
            if (!finished.contains(subtask)) {
                String[] parts = subtask.split("/");
                acknowledge(id, parts[0], Integer.parseInt(parts[1]));
            }
        }
    }

    /** The subtask's current attempt acknowledges checkpoint {@code id}. */
    void acknowledge(long id, String task, int subtask) {
        send(CheckpointAcknowledged.newBuilder().setJobId(jobId).setCheckpointId(id).setTaskId(task)
                .setSubtaskIndex(subtask).setAttemptId(attempt(task, subtask))
                .setStateHandle(state(task, subtask, "chk-" + id)).setMetrics(SubtaskMetrics.newBuilder().build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** The subtask's current attempt declines checkpoint {@code id}. */
    void decline(long id, String task, int subtask, String message) {
        send(CheckpointDeclined.newBuilder().setJobId(jobId).setCheckpointId(id).setTaskId(task)
                .setSubtaskIndex(subtask).setAttemptId(attempt(task, subtask)).setMessage(message)
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** The participant acknowledges checkpoint {@code id} with its state. */
    void participantAcknowledges(long id) {
        send(ParticipantAcknowledged.newBuilder().setJobId(jobId).setCheckpointId(id).setParticipant(participant)
                .setState(StateHandle.newBuilder().setLocation(location("chk-" + id, participant)).setSizeBytes(7)
                        .build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** The participant declines checkpoint {@code id}. */
    void participantDeclines(long id, String message) {
        send(ParticipantDeclined.newBuilder().setJobId(jobId).setCheckpointId(id).setParticipant(participant)
                .setMessage(message).setTimestampMs(System.currentTimeMillis()).build());
    }

    /** The subtask's current attempt finishes for good, with a final state. */
    void finish(String task, int subtask) {
        finished.add(task + "/" + subtask);
        send(TaskFinished.newBuilder().setJobId(jobId).setTaskId(task).setSubtaskIndex(subtask)
                .setAttemptId(attempt(task, subtask)).setFinalState(state(task, subtask, "final"))
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** The subtask's current attempt could not restore checkpoint {@code id}. */
    void restoreFailed(long id, String task, int subtask, String message) {
        send(RestoreFailed.newBuilder().setJobId(jobId).setCheckpointId(id).setTaskId(task).setSubtaskIndex(subtask)
                .setAttemptId(attempt(task, subtask)).setMessage(message).setTimestampMs(System.currentTimeMillis())
                .build());
    }

    private String attempt(String task, int subtask) {
        String attempt = attempts.get(task + "/" + subtask);
        if (attempt == null) {
            throw new IllegalStateException(task + "/" + subtask + " of " + jobId + " was never started");
        }
        return attempt;
    }

    private StateHandle state(String task, int subtask, String dir) {
        StateHandle.Builder handle = StateHandle.newBuilder()
                .setLocation(location(dir, task + "-" + subtask + "-" + attempt(task, subtask))).setSizeBytes(11);
        return task.equals(KEYED)
                ? handle.setKeyGroups(new KeyGroupRange(0, KEY_GROUPS - 1)).build()
                : handle.setOperatorStateMode(OperatorStateMode.UNION).build();
    }

    private String location(String dir, String name) {
        return storage + "/" + jobId + "/" + dir + "/" + name;
    }

    private void send(SpecificRecord event) {
        try {
            producer.send(new ProducerRecord<>(topic, jobId, new AckEnvelope(event))).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot produce to " + topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
