package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.core.events.EventKind;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreFailed;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskRescale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of record a sidecar sends to {@code cairn.acks} (task starts, acks, declines, finished tasks,
 * participants' acks and declines), and every kind of request, in the default secured mode (sidecar records signed
 * with the job's key, requests with the requests key) and in the unsigned mode: each is taken in, and in the secured
 * mode each unsigned sidecar record is dead-lettered (unsigned requests: {@link SignedRequestsTopologyTest}).
 */
class SidecarRecordKindsTopologyTest {

    private static final String JOB = "job";
    private static final SigningKey MASTER = SigningKey.generate();

    @TempDir
    Path stateDir;

    private CoordinatorDriver driver;
    private final List<Object> journal = new ArrayList<>();
    private int sidecarRecordsSent;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void shouldTakeInEveryKindOfSidecarRecordSignedWithTheJobsKey() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        runCheckpointsWithEveryKind(driver.acks());

        assertThat(driver.deadLetters().isEmpty()).isTrue();
        assertThat(kindsInJournal()).containsAll(ackKinds());
    }

    @Test
    void shouldTakeInEveryKindOfSidecarRecordUnsignedWhenSigningIsOff() {
        driver = CoordinatorDriver.on(stateDir).start();

        runCheckpointsWithEveryKind(driver.unsignedAcks());

        assertThat(driver.deadLetters().isEmpty()).isTrue();
        assertThat(kindsInJournal()).containsAll(ackKinds());
    }

    @Test
    void shouldDeadLetterEveryKindOfSidecarRecordUnsignedWhenSigningIsOn() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        int sent = runCheckpointsWithEveryKindUnchecked(driver.unsignedAcks());

        assertThat(driver.deadLetters().readRecordsToList()).extracting(r -> header(r.headers().lastHeader(
                DeadLetterQueueHandler.REASON))).hasSize(sent).containsOnly("UNSIGNED");
        assertThat(kindsInJournal()).doesNotContainAnyElementsOf(ackKinds());
    }

    @Test
    void shouldTakeInEveryKindOfRequestAsTheRestApiSendsItInBothModes() {
        for (SigningKey master : Arrays.asList(MASTER, null)) {
            driver = CoordinatorDriver.on(stateDir.resolve(String.valueOf(master != null))).signedWith(master).start();

            driver.register(spec());
            trigger("r-1");
            driver.send(JOB, new RequestEnvelope(Events.statusChange(JOB, JobStatus.SUSPENDED)));
            driver.send(JOB, new RequestEnvelope(RestoreJob.newBuilder().setJobId(JOB).setRequestId("restore-1")
                    .setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test").setTimestampMs(driver.now()).build()));
            driver.send(JOB, new RequestEnvelope(DisposeSavepoint.newBuilder().setJobId(JOB)
                    .setRequestId("dispose-1").setCheckpointId(1L).setRequester("test").setTimestampMs(driver.now())
                    .build()));
            driver.send(JOB, new RequestEnvelope(RescaleJob.newBuilder().setJobId(JOB).setRequestId("rescale-1")
                    .setTasks(List.of(new TaskRescale(spec().getTasks().get(0).getTaskId(), 2)))
                    .setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test").setTimestampMs(driver.now()).build()));
            driver.send(JOB, new RequestEnvelope(RemoveJob.newBuilder().setJobId(JOB).setRequestId("remove-1")
                    .setRequester("test").setTimestampMs(driver.now()).build()));

            assertThat(driver.deadLetters().isEmpty()).as("signing %s", master != null ? "on" : "off").isTrue();
            assertThat(kindsInJournal()).containsAll(requestKinds());
            driver.close();
            driver = null;
            journal.clear();
        }
    }

    /**
     * Checkpoint 1 completes (participant ack, a finished subtask, an ack), checkpoint 2 aborts on the participant's
     * decline, checkpoint 3 on a subtask's decline.
     */
    private void runCheckpointsWithEveryKind(TestInputTopic<String, AckEnvelope> acks) {
        runCheckpointsWithEveryKindUnchecked(acks);

        List<Object> journal = journal();
        assertThat(journal).filteredOn(CheckpointCompleted.class::isInstance)
                .extracting(e -> ((CheckpointCompleted) e).getCheckpointId()).containsExactly(1L);
        assertThat(journal).filteredOn(CheckpointAborted.class::isInstance)
                .extracting(e -> ((CheckpointAborted) e).getCheckpointId()).containsExactly(2L, 3L);
    }

    /** As above, without checking the outcome; returns how many sidecar records it sent. */
    private int runCheckpointsWithEveryKindUnchecked(TestInputTopic<String, AckEnvelope> acks) {
        driver.register(spec());
        send(acks, started(0));
        send(acks, started(1));
        send(acks, TaskFinished.newBuilder().setJobId(JOB).setTaskId("source")
                .setSubtaskIndex(1).setAttemptId(CoordinatorDriver.attempt("source", 1))
                .setFinalState(StateHandle.newBuilder().setLocation("file:///final/source-1")
                        .setSizeBytes(7L).build()).setTimestampMs(driver.now()).build());

        trigger("r-1");
        participantAcks(acks, 1);
        send(acks, Events.ack(JOB, 1, "source", 0, CoordinatorDriver.attempt("source", 0))
                .setTimestampMs(driver.now()).build());
        trigger("r-2");
        send(acks, ParticipantDeclined.newBuilder().setJobId(JOB).setCheckpointId(2)
                .setParticipant("hook").setMessage("hook failed").setTimestampMs(driver.now()).build());
        trigger("r-3");
        participantAcks(acks, 3);
        send(acks, Events.decline(JOB, 3, "source", 0, CoordinatorDriver.attempt("source", 0))
                .setTimestampMs(driver.now()).build());
        send(acks, RestoreFailed.newBuilder().setJobId(JOB).setCheckpointId(1).setTaskId("source").setSubtaskIndex(0)
                .setAttemptId(CoordinatorDriver.attempt("source", 0)).setMessage("the state is corrupt")
                .setTimestampMs(driver.now()).build());
        return sidecarRecordsSent;
    }

    private Object started(int subtask) {
        return Events.taskStarted(JOB, "source", subtask, CoordinatorDriver.attempt("source", subtask))
                .setTimestampMs(driver.now()).build();
    }

    /** Sends one sidecar record, counted in {@link #sidecarRecordsSent}. */
    private void send(TestInputTopic<String, AckEnvelope> acks, Object event) {
        acks.pipeInput(JOB, new AckEnvelope(event));
        sidecarRecordsSent++;
    }

    private void trigger(String requestId) {
        driver.send(JOB, new RequestEnvelope(Events.triggerRequest(JOB, requestId).setType(CheckpointType.CHECKPOINT)
                .setTimestampMs(driver.now()).build()));
    }

    private void participantAcks(TestInputTopic<String, AckEnvelope> acks, long checkpointId) {
        send(acks, ParticipantAcknowledged.newBuilder().setJobId(JOB)
                .setCheckpointId(checkpointId).setParticipant("hook")
                .setState(StateHandle.newBuilder().setLocation("file:///hook/" + checkpointId)
                        .setSizeBytes(3L).build()).setTimestampMs(driver.now()).build());
    }

    private static JobSpec spec() {
        JobSpec spec = CoordinatorDriver.spec(JOB, CoordinatorDriver.task("source", 2));
        spec.setParticipants(List.of("hook"));
        spec.getConfig().setIntervalMs(3_600_000L);
        return spec;
    }

    /** Every journal event of the current driver so far. */
    private List<Object> journal() {
        driver.journal().readValuesToList().forEach(envelope -> journal.add(envelope.getEvent()));
        return List.copyOf(journal);
    }

    private Set<String> kindsInJournal() {
        return journal().stream().map(e -> e.getClass().getSimpleName()).collect(Collectors.toSet());
    }

    /** Every member of the acks topic's union, each an event kind that comes from cairn.acks. */
    private static Set<String> ackKinds() {
        Set<String> union = AckEnvelope.getClassSchema().getField("event").schema().getTypes().stream()
                .map(Schema::getName).collect(Collectors.toSet());
        assertThat(Arrays.stream(EventKind.values()).filter(k -> k.origin() == EventKind.Origin.ACKS)
                .map(k -> k.type().getSimpleName())).containsExactlyInAnyOrderElementsOf(union);
        return union;
    }

    /** Every member of the requests topic's union. */
    private static Set<String> requestKinds() {
        return RequestEnvelope.getClassSchema().getField("event").schema().getTypes().stream()
                .map(Schema::getName).collect(Collectors.toSet());
    }

    private static String header(Header header) {
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
