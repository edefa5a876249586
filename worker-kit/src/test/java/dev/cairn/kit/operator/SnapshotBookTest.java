package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointType;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Pairing snapshots taken at alignment with the sidecar's requests, and the subtask's lineage. */
class SnapshotBookTest {

    private final SnapshotBook book = new SnapshotBook();

    @Test
    void shouldPairASnapshotAlignedBeforeItsRequest() {
        SnapshotBook.Aligned snapshot = aligned(3);

        assertThat(book.aligned(snapshot)).isEmpty();
        SnapshotBook.Waiting request = request(3, -1);
        assertThat(book.requested(request)).hasValueSatisfying(ready -> {
            assertThat(ready.snapshot()).isSameAs(snapshot);
            assertThat(ready.request()).isSameAs(request);
        });
    }

    @Test
    void shouldPairARequestWithTheSnapshotAlignedAfterIt() {
        SnapshotBook.Waiting request = request(3, -1);

        assertThat(book.requested(request)).isEmpty();
        assertThat(book.aligned(aligned(3))).hasValueSatisfying(ready -> assertThat(ready.request())
                .isSameAs(request));
        assertThat(request.result()).isNotDone();
    }

    @Test
    void shouldDeclineARequestForACheckpointTheSubtaskDeclined() {
        book.declined(4, "barrier 5 overtook it");
        SnapshotBook.Waiting request = request(4, -1);

        assertThat(book.requested(request)).isEmpty();
        assertThat(request.result()).isCompletedExceptionally();
        assertThat(failure(request)).hasMessage("barrier 5 overtook it");
    }

    @Test
    void shouldDeclineAWaitingRequestWhenTheCheckpointIsDeclinedOrAborted() {
        SnapshotBook.Waiting declined = request(4, -1);
        SnapshotBook.Waiting aborted = request(5, -1);
        book.requested(declined);
        book.requested(aborted);

        book.declined(4, "an upstream restarted");
        book.aborted(5);

        assertThat(failure(declined)).hasMessage("an upstream restarted");
        assertThat(failure(aborted)).hasMessageContaining("checkpoint 5 was aborted");
    }

    @Test
    void shouldDeclineARequestForACheckpointOlderThanOneAlreadyAligned() {
        book.aligned(aligned(6));
        SnapshotBook.Waiting request = request(5, -1);

        book.requested(request);

        assertThat(failure(request)).hasMessageContaining("older than checkpoint 6");
    }

    @Test
    void shouldDeclineWhatWaitedWhenItRebases() {
        SnapshotBook.Waiting request = request(7, -1);
        book.requested(request);
        book.aligned(aligned(8));

        book.rebase(2, Optional.of("file:///chk-2/operator-count-0.state"), "the subtask rolled back");

        assertThat(failure(request)).hasMessage("the subtask rolled back");
        assertThat(book.base()).isEqualTo(2);
        assertThat(book.location(2)).contains("file:///chk-2/operator-count-0.state");
        SnapshotBook.Waiting again = request(8, -1);
        assertThat(book.requested(again)).isEmpty();
        assertThat(again.result()).isNotDone();
    }

    @Test
    void shouldDeclineEveryWaitingRequestWithTheCauseWhenTheSubtaskStops() {
        SnapshotBook.Waiting request = request(7, -1);
        book.requested(request);
        IllegalStateException lost = new IllegalStateException("lost a record before barrier 7");

        book.stopped(lost);

        assertThat(failure(request)).isSameAs(lost);
    }

    @Test
    void shouldDeclineARequestForACheckpointSkippedAfterARollback() {
        book.rebase(2, Optional.of("chk-2"), "the subtask rolled back");
        book.skipThrough(5);
        SnapshotBook.Waiting skipped = request(4, -1);
        SnapshotBook.Waiting next = request(6, -1);

        book.requested(skipped);
        book.requested(next);

        assertThat(failure(skipped)).hasMessageContaining("older than checkpoint 5");
        assertThat(next.result()).isNotDone();
    }

    @Test
    void shouldKeepTheLineageFromTheLatestCompletedCheckpointOn() {
        book.rebase(1, Optional.of("chk-1"), "restored");
        book.taken(2, "chk-2");
        book.taken(3, "chk-3");

        assertThat(book.completed(2)).isTrue();

        assertThat(book.location(1)).isEmpty();
        assertThat(book.location(2)).contains("chk-2");
        assertThat(book.location(3)).contains("chk-3");
    }

    @Test
    void shouldBeBehindWhenACheckpointCompletedWithoutASnapshotOfItsLineage() {
        book.rebase(1, Optional.of("chk-1"), "restored");
        book.taken(3, "chk-3");

        assertThat(book.completed(2)).isFalse();
        assertThat(book.behind(2)).isTrue();
        assertThat(book.behind(3)).isFalse();
        assertThat(book.behind(1)).isFalse();
        assertThat(book.behind(-1)).isFalse();
    }

    @Test
    void shouldNotBeBehindACheckpointOlderThanOneItCompleted() {
        book.rebase(1, Optional.of("chk-1"), "restored");
        book.taken(4, "chk-4");
        book.completed(4);

        assertThat(book.behind(3)).isFalse();
        assertThat(book.behind(4)).isFalse();
        assertThat(book.behind(5)).isTrue();
    }

    private static Throwable failure(SnapshotBook.Waiting request) {
        assertThat(request.result()).isCompletedExceptionally();
        return request.result().handle((result, error) -> error).join();
    }

    private static SnapshotBook.Aligned aligned(long checkpointId) {
        return new SnapshotBook.Aligned(checkpointId, PendingState.empty(new OperatorState("op", 0, checkpointId, 1,
                "in", InputPositions.NONE, Map.of())), TaskOutput.Sealed.NOTHING);
    }

    private static SnapshotBook.Waiting request(long checkpointId, long latestCompletedId) {
        SnapshotRequest request = new SnapshotRequest(checkpointId, 0, CheckpointType.CHECKPOINT,
                "file:///chk-" + checkpointId, "job", "count", 0).withLatestCompletedId(latestCompletedId);
        return new SnapshotBook.Waiting(request, new CompletableFuture<SnapshotResult>());
    }
}
