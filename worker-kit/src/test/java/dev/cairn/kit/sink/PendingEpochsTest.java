package dev.cairn.kit.sink;

import static dev.cairn.kit.sink.Records.epoch;
import static dev.cairn.kit.sink.Records.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PendingEpochsTest {

    private final PendingEpochs pending = new PendingEpochs();

    private void send(String... keysAndValues) {
        for (String text : keysAndValues) {
            pending.add(record(text, text));
        }
    }

    @Test
    void shouldCloseTheOpenEpochAsTheSnapshotsCheckpoint() {
        // given
        send("a", "b");

        // when
        var snapshot = pending.seal(1);

        // then
        assertThat(snapshot).containsExactly(epoch(1, "a", "b"));
        assertThat(pending.seal(2)).as("the open epoch is empty again").containsExactly(epoch(1, "a", "b"));
    }

    @Test
    void shouldPutRecordsSentAfterASnapshotIntoTheNextEpoch() {
        // given
        send("a");
        pending.seal(1);

        // when
        send("b", "c");
        var snapshot = pending.seal(2);

        // then
        assertThat(snapshot).containsExactly(epoch(1, "a"), epoch(2, "b", "c"));
    }

    @Test
    void shouldCommitEveryEpochUpToTheCompletedCheckpoint() {
        // given
        send("a");
        pending.seal(1);
        send("b");
        pending.seal(2);
        send("c");
        pending.seal(3);

        // when
        var committable = pending.committable(2);
        pending.committed(2);

        // then
        assertThat(committable).containsExactly(epoch(1, "a"), epoch(2, "b"));
        assertThat(pending.uncommitted()).containsExactly(epoch(3, "c"));
        assertThat(pending.isCommitted(2)).isTrue();
        assertThat(pending.isCommitted(3)).isFalse();
    }

    @Test
    void shouldKeepTheOpenEpochOutOfACommit() {
        // given
        send("a");
        pending.seal(1);
        send("b");

        // when
        var committable = pending.committable(1);
        pending.committed(1);

        // then
        assertThat(committable).containsExactly(epoch(1, "a"));
        assertThat(pending.uncommitted()).isEmpty();
        assertThat(pending.seal(2)).containsExactly(epoch(2, "b"));
    }

    @Test
    void shouldKeepTheEpochOfAnAbortedCheckpointForTheNextCompletion() {
        // given checkpoint 1 was aborted: nothing is committed for it
        send("a");
        pending.seal(1);
        send("b");
        pending.seal(2);

        // when checkpoint 2 completes
        var committable = pending.committable(2);

        // then
        assertThat(committable).containsExactly(epoch(1, "a"), epoch(2, "b"));
    }

    @Test
    void shouldHoldEveryUncommittedEpochInASnapshotAndNoEmptyOne() {
        // given
        send("a");
        pending.seal(1);
        pending.seal(2);

        // when
        send("c");
        var snapshot = pending.seal(3);

        // then
        assertThat(snapshot).containsExactly(epoch(1, "a"), epoch(3, "c"));
        assertThat(pending.uncommitted()).containsExactly(epoch(1, "a"), epoch(3, "c"));
    }

    @Test
    void shouldRejectASnapshotOfACheckpointNotAfterTheLastOne() {
        // given
        pending.seal(5);

        // when / then
        assertThatThrownBy(() -> pending.seal(5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("checkpoint 5 after that of checkpoint 5");
        assertThatThrownBy(() -> pending.seal(4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldStartOverAfterARestore() {
        // given
        send("a");
        pending.seal(1);
        send("b");

        // when
        pending.restoredTo(7);

        // then
        assertThat(pending.uncommitted()).isEmpty();
        assertThat(pending.isCommitted(7)).isTrue();
        assertThat(pending.isCommitted(8)).isFalse();
        assertThatThrownBy(() -> pending.seal(7)).isInstanceOf(IllegalArgumentException.class);
        assertThat(pending.seal(8)).isEmpty();
    }
}
