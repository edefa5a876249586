package dev.cairn.sidecar.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointType;
import org.junit.jupiter.api.Test;

class SnapshotRequestTest {

    @Test
    void shouldKnowOfNoCompletedCheckpointWhenBuiltTheWayCallersBuiltItBefore() {
        // when
        SnapshotRequest task = new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/3", "j", "t", 1);
        SnapshotRequest forTask = SnapshotRequest.forTask(3, 12, CheckpointType.CHECKPOINT, "file:///c/3", "j", "t", 1,
                CheckpointOptions.DEFAULTS);
        SnapshotRequest participant = SnapshotRequest.forParticipant(3, 12, CheckpointType.CHECKPOINT, "file:///c/3",
                "j", "offsets", CheckpointOptions.DEFAULTS);
        SnapshotRequest nineArguments = new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/3", "j", "t",
                1, CheckpointOptions.DEFAULTS, null);

        // then
        assertThat(task.latestCompletedId()).isEqualTo(SnapshotRequest.NO_COMPLETED_CHECKPOINT).isEqualTo(-1);
        assertThat(forTask.latestCompletedId()).isEqualTo(-1);
        assertThat(participant.latestCompletedId()).isEqualTo(-1);
        assertThat(nineArguments).isEqualTo(task);
    }

    @Test
    void shouldChangeOnlyTheLatestCompletedIdWhenWithered() {
        // given
        SnapshotRequest request = SnapshotRequest.forParticipant(7, 12, CheckpointType.SAVEPOINT, "s3://sp/7", "j",
                "offsets", CheckpointOptions.DEFAULTS);

        // when
        SnapshotRequest withLatest = request.withLatestCompletedId(6);

        // then
        assertThat(withLatest.latestCompletedId()).isEqualTo(6);
        assertThat(withLatest.withLatestCompletedId(-1)).isEqualTo(request);
    }

    @Test
    void shouldRejectALatestCompletedIdBelowMinusOne() {
        SnapshotRequest request = new SnapshotRequest(3, 12, CheckpointType.CHECKPOINT, "file:///c/3", "j", "t", 1);

        assertThatThrownBy(() -> request.withLatestCompletedId(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was -2");
    }
}
