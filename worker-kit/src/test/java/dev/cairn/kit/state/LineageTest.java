package dev.cairn.kit.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A subtask's lineage: what it can roll back to, and when it is behind. */
class LineageTest {

    private final Lineage lineage = new Lineage();

    @Test
    void shouldStartFromTheInitialStateWithNothingToRollBackTo() {
        assertThat(lineage.base()).isEqualTo(-1);
        assertThat(lineage.location(0)).isEmpty();
        assertThat(lineage.behind(-1)).isFalse();
        assertThat(lineage.behind(0)).isTrue();
    }

    @Test
    void shouldForgetSnapshotsOlderThanACompletedOneItTook() {
        lineage.rebase(1, Optional.of("chk-1"));
        lineage.taken(2, "chk-2");
        lineage.taken(3, "chk-3");

        assertThat(lineage.completed(2)).isTrue();

        assertThat(lineage.location(1)).isEmpty();
        assertThat(lineage.location(2)).contains("chk-2");
        assertThat(lineage.location(3)).contains("chk-3");
    }

    @Test
    void shouldBeBehindACheckpointThatCompletedWithoutItsSnapshot() {
        lineage.rebase(1, Optional.of("chk-1"));
        lineage.taken(3, "chk-3");

        assertThat(lineage.completed(2)).isFalse();
        assertThat(lineage.behind(2)).isTrue();
        assertThat(lineage.behind(3)).isFalse();
        assertThat(lineage.behind(1)).isFalse();
        assertThat(lineage.behindMessage("count-0", 2)).contains("count-0 is behind: checkpoint 2 completed",
                "comes from checkpoint 1");
    }

    @Test
    void shouldStartAgainFromARollback() {
        lineage.rebase(1, Optional.of("chk-1"));
        lineage.taken(2, "chk-2");

        lineage.rebase(1, Optional.of("chk-1"));

        assertThat(lineage.location(2)).isEmpty();
        assertThat(lineage.behind(2)).isTrue();
    }
}
