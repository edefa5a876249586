package dev.cairn.kit.sink;

import static dev.cairn.kit.sink.Records.epoch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.sink.RestorePlan.Verdict;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RestorePlanTest {

    /** Snapshot 5 was taken while epochs 3, 4 and 5 were uncommitted. */
    private final SinkState snapshotOfFive = new SinkState("orders", 0, 5,
            List.of(epoch(3, "c"), epoch(4, "d"), epoch(5, "e")));

    @Test
    void shouldCommitEveryPendingEpochWhenThereIsNoMarker() {
        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, OptionalLong.empty(), false);

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.COMMIT_PENDING);
        assertThat(plan.toCommit()).containsExactly(epoch(3, "c"), epoch(4, "d"), epoch(5, "e"));
        assertThat(plan.markerAfter()).isEqualTo(5);
        assertThat(plan.writes()).isTrue();
    }

    @Test
    void shouldCommitOnlyTheEpochsAfterAnOlderMarker() {
        // given checkpoint 3 completed and was committed after snapshot 5 was taken

        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, OptionalLong.of(3), false);

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.COMMIT_PENDING);
        assertThat(plan.markerBefore()).isEqualTo(3);
        assertThat(plan.toCommit()).containsExactly(epoch(4, "d"), epoch(5, "e"));
        assertThat(plan.markerAfter()).isEqualTo(5);
    }

    @Test
    void shouldMoveTheMarkerEvenWhenNoPendingEpochIsLeft() {
        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, OptionalLong.of(4), false);
        RestorePlan empty = RestorePlan.restore(new SinkState("orders", 0, 5, List.of()), OptionalLong.of(2), false);

        // then
        assertThat(plan.toCommit()).containsExactly(epoch(5, "e"));
        assertThat(empty.toCommit()).isEmpty();
        assertThat(empty.writes()).isTrue();
        assertThat(empty.markerAfter()).isEqualTo(5);
    }

    @Test
    void shouldWriteNothingWhenTheMarkerIsTheRestoredCheckpoint() {
        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, OptionalLong.of(5), false);

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.ALREADY_COMMITTED);
        assertThat(plan.toCommit()).isEmpty();
        assertThat(plan.writes()).isFalse();
    }

    @Test
    void shouldRefuseToRestoreAndWriteNothingWhenTheOutputIsAheadOfAPointNobodyChose() {
        // given the output committed up to checkpoint 8, and the job's restore point says 5 (a stale read)
        OptionalLong marker = OptionalLong.of(8);

        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, marker, false);

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.REFUSED_OUTPUT_AHEAD);
        assertThat(plan.refused()).isTrue();
        assertThat(plan.markerBefore()).isEqualTo(8);
        assertThat(plan.restored()).isEqualTo(5);
        assertThat(plan.toCommit()).isEmpty();
        assertThat(plan.markerAfter()).isEqualTo(8);
        assertThat(plan.writes()).isFalse();
    }

    @Test
    void shouldSetTheMarkerBackToAChosenPointTheOutputIsAheadOf() {
        // given the output committed up to checkpoint 8, and a user chose to restore checkpoint 5
        OptionalLong marker = OptionalLong.of(8);

        // when
        RestorePlan plan = RestorePlan.restore(snapshotOfFive, marker, true);

        // then the epochs after 5 are not committed again from the snapshot, and the marker goes back to 5
        assertThat(plan.verdict()).isEqualTo(Verdict.OUTPUT_AHEAD_OF_CHOSEN_POINT);
        assertThat(plan.refused()).isFalse();
        assertThat(plan.markerBefore()).isEqualTo(8);
        assertThat(plan.toCommit()).isEmpty();
        assertThat(plan.markerAfter()).isEqualTo(5);
        assertThat(plan.writes()).isTrue();
    }

    @Test
    void shouldDecideTheSameWhetherOrNotChosenWhenTheOutputIsNotAhead() {
        // given markers behind and at the restored checkpoint
        for (long marker : new long[] {-1, 3, 5}) {
            // when
            RestorePlan nobody = RestorePlan.restore(snapshotOfFive, OptionalLong.of(marker), false);
            RestorePlan user = RestorePlan.restore(snapshotOfFive, OptionalLong.of(marker), true);

            // then
            assertThat(user).isEqualTo(nobody);
            assertThat(user.refused()).isFalse();
        }
    }

    @Test
    void shouldResetTheMarkerOfAnEarlierRunOnAFreshStart() {
        // when
        RestorePlan plan = RestorePlan.fresh(OptionalLong.of(12));

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.FRESH);
        assertThat(plan.toCommit()).isEmpty();
        assertThat(plan.markerAfter()).isEqualTo(-1);
        assertThat(plan.writes()).isTrue();
    }

    @Test
    void shouldWriteNothingOnAFreshStartWithoutAMarker() {
        // when
        RestorePlan plan = RestorePlan.fresh(OptionalLong.empty());
        RestorePlan reset = RestorePlan.fresh(OptionalLong.of(-1));

        // then
        assertThat(plan.writes()).isFalse();
        assertThat(reset.writes()).isFalse();
    }
}
