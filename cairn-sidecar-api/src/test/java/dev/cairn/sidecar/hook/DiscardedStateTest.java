package dev.cairn.sidecar.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.DiscardReason;
import org.junit.jupiter.api.Test;

class DiscardedStateTest {

    @Test
    void shouldBeAnAcksOwnObjectWhenBuiltWithTheFiveComponentConstructor() {
        DiscardedState state = new DiscardedState(7, "file:///s/7", 64, AckDiscardStatus.LATE, "late");

        assertThat(state).isEqualTo(DiscardedState.ofAck(7, "file:///s/7", 64, false, AckDiscardStatus.LATE, "late"));
        assertThat(state.fromAck()).isTrue();
        assertThat(state.reason()).isNull();
        assertThat(state.cause()).isEqualTo("LATE");
    }

    @Test
    void shouldNameTheReasonAsItsCauseWhenACheckpointsStateWasDiscarded() {
        DiscardedState state = DiscardedState.ofCheckpoint(3, "file:///s/shared/a", 9, true, DiscardReason.SUBSUMED,
                "subsumed by checkpoint 4");

        assertThat(state.fromAck()).isFalse();
        assertThat(state.status()).isNull();
        assertThat(state.shared()).isTrue();
        assertThat(state.cause()).isEqualTo("SUBSUMED");
    }

    @Test
    void shouldRefuseAStateWithBothCausesOrNone() {
        assertThatThrownBy(() -> new DiscardedState(3, "x", 1, AckDiscardStatus.LATE, "m", DiscardReason.ABORTED,
                false)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("either");
        assertThatThrownBy(() -> new DiscardedState(3, "x", 1, null, "m", null, false))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
