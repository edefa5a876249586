package dev.cairn.sidecar.it;

import static dev.cairn.sidecar.it.ControlRecordsBed.WAIT;
import static dev.cairn.sidecar.it.ControlRecordsBed.completed;
import static dev.cairn.sidecar.it.ControlRecordsBed.participantsTriggered;
import static dev.cairn.sidecar.it.ControlRecordsBed.trigger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.core.Participant;
import dev.cairn.sidecar.hook.RestorePoint;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Sidecars in the participant role (Flink's master hooks and operator coordinators) against hand-written
 * control records: what they answer to {@code ParticipantsTriggered}, what they are told, what they restore.
 */
class ParticipantSidecarIT extends ControlRecordsTestBase {

    @Test
    void shouldAcknowledgeWithItsStateWhenParticipantsTriggeredNamesIt() {
        // given a participant sidecar of the job, and a task sidecar of the same job
        String job = CoordinatorTestBed.uniqueJobId("participant");
        RecordingHook participant = RecordingHook.acking();
        RecordingHook task = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.participantConfig(job, "offsets"), participant);
        Sidecar taskSidecar = bed.start(bed.taskConfig(job, "sink", 0), task);

        // when checkpoint 1 starts with its participants, then its tasks, and completes
        bed.control(job, participantsTriggered(job, 1, "enumerator", "offsets"));
        ParticipantAcknowledged ack = bed.awaitAck(ParticipantAcknowledged.class, a -> a.getJobId().equals(job));
        bed.control(job, trigger(job, 1, CheckpointType.CHECKPOINT, SnapshotOptions.newBuilder().build()));
        bed.control(job, completed(job, 1, -1, SnapshotOptions.newBuilder().build()));

        // then the participant acked with its state, snapshotted once, and was told of the completion
        assertThat(ack.getCheckpointId()).isEqualTo(1);
        assertThat(ack.getParticipant()).isEqualTo("offsets");
        assertThat(ack.getState()).isEqualTo(StateHandle.newBuilder()
                .setLocation("file:///cairn-it/" + job + "/chk-1/offsets").setSizeBytes(1_000L).build());
        await().atMost(WAIT).until(() -> participant.completions().size() == 1);
        assertThat(participant.completions()).containsExactly(new RecordingHook.Notification(1, -1));
        assertThat(participant.snapshots()).singleElement()
                .satisfies(request -> assertThat(request.participant()).isEqualTo("offsets"));
        // the task ignored the participants' trigger, took its own snapshot and was told too
        await().atMost(WAIT).until(() -> task.completions().size() == 1);
        assertThat(task.snapshots()).hasSize(1);
        // a participant registers no attempt
        assertThat(sidecar.identity()).isEqualTo(new Participant(job, "offsets"));
        assertThat(bed.acks(TaskStarted.class, t -> t.getJobId().equals(job)))
                .extracting(TaskStarted::getAttemptId).containsExactly(taskSidecar.attemptId());
    }

    @Test
    void shouldDeclineWithTheWorkersMessageWhenItsHookFails() {
        // given
        String job = CoordinatorTestBed.uniqueJobId("participant-decline");
        bed.start(bed.participantConfig(job, "offsets"), RecordingHook.declining(id -> true, "offsets store down"));

        // when
        bed.control(job, participantsTriggered(job, 4, "offsets"));

        // then
        ParticipantDeclined decline = bed.awaitAck(ParticipantDeclined.class, d -> d.getJobId().equals(job));
        assertThat(decline.getCheckpointId()).isEqualTo(4);
        assertThat(decline.getParticipant()).isEqualTo("offsets");
        assertThat(decline.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        assertThat(decline.getMessage()).isEqualTo("offsets store down");
    }

    @Test
    void shouldRestoreFromItsEntryInTheNewestRetainedCheckpointWhenItStarts() {
        // given two retained checkpoints, the newest holding the participant's state
        String job = CoordinatorTestBed.uniqueJobId("participant-restore");
        CheckpointCompleted older = completed(job, 4, -1, null);
        older.setParticipantStates(List.of(new ParticipantState("offsets",
                StateHandle.newBuilder().setLocation("file:///old").setSizeBytes(1L).build())));
        CheckpointCompleted newest = completed(job, 5, 4, null);
        newest.setParticipantStates(List.of(new ParticipantState("enumerator", null),
                new ParticipantState("offsets",
                        StateHandle.newBuilder().setLocation("file:///cp/chk-5/offsets").setSizeBytes(77L).build())));
        bed.retain(RetainedCheckpoints.newBuilder().setJobId(job).setCheckpoints(List.of(older, newest)).build());

        // when
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.participantConfig(job, "offsets"), hook);

        // then
        RestorePoint expected = new RestorePoint(5, "file:///cp/chk-5/offsets", 77);
        assertThat(hook.restores()).containsExactly(Optional.of(expected));
        assertThat(sidecar.restoredFrom()).contains(expected);
    }

    @Test
    void shouldAcknowledgeWithoutStateWhenACommandWorkerAnswersNothing() {
        // given a participant reached through a command that keeps no state
        String job = CoordinatorTestBed.uniqueJobId("participant-command");
        bed.start(SidecarConfigCopies.withCommandHook(bed.participantConfig(job, "enumerator"),
                List.of("sh", "-c", "echo '{}'"), Duration.ofSeconds(10)));

        // when
        bed.control(job, participantsTriggered(job, 2, "enumerator"));

        // then
        ParticipantAcknowledged ack = bed.awaitAck(ParticipantAcknowledged.class, a -> a.getJobId().equals(job));
        assertThat(ack.getParticipant()).isEqualTo("enumerator");
        assertThat(ack.getState()).isNull();
    }
}
