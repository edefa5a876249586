package dev.cairn.kit.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.sidecar.hook.AttemptNumber;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Generations ordered by attempts, not clocks: given what was restored and the attempt, then the generation. */
class GenerationsTest {

    /** A generation an earlier release took from the wall clock: 2026-12-06 in milliseconds. */
    private static final long WALL_CLOCK_GENERATION = 1_796_515_200_000L;

    @Test
    void shouldAnnounceALaterAttemptAboveAnEarlierOneWhenItsHostsClockIsBehind() {
        // given attempt 41 restored a state and rolled back three times
        Generations earlier = new Generations("count-0", attempt(41));
        long last = earlier.next(WALL_CLOCK_GENERATION);
        for (int rollback = 0; rollback < 3; rollback++) {
            last = earlier.next(-1);
        }

        // when attempt 42 restores the same older state (no clock is read, whatever the host's says)
        long next = new Generations("count-0", attempt(42)).next(WALL_CLOCK_GENERATION);

        // then
        assertThat(next).isGreaterThan(last);
    }

    @Test
    void shouldStartEveryAttemptAboveEveryWallClockGenerationOfEarlierReleases() {
        long first = new Generations("count-0", attempt(0)).next(WALL_CLOCK_GENERATION);

        assertThat(first).isEqualTo(Generations.FLOOR).isGreaterThan(WALL_CLOCK_GENERATION);
    }

    @Test
    void shouldAddOnePerRollbackWithinAnAttempt() {
        Generations generations = new Generations("count-0", attempt(3));

        long first = generations.next(-1);
        long second = generations.next(first - 10);

        assertThat(first).isEqualTo(Generations.FLOOR + 3 * Generations.PER_ATTEMPT);
        assertThat(second).isEqualTo(first + 1).isEqualTo(generations.current());
    }

    @Test
    void shouldStopAnAttemptThatWouldAnnounceTheNextAttemptsFirstGeneration() {
        // given attempt 3 at its last generation
        Generations generations = new Generations("count-0", attempt(3));
        long nextAttemptsFirst = Generations.FLOOR + 4 * Generations.PER_ATTEMPT;
        generations.next(nextAttemptsFirst - 2);

        // when / then
        assertThatThrownBy(() -> generations.next(-1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("count-0").hasMessageContaining("a new attempt");
        assertThat(generations.current()).isEqualTo(nextAttemptsFirst - 1);
    }

    @Test
    void shouldAddOneToTheRestoredGenerationWithoutAnAttempt() {
        Generations generations = new Generations("count-0", Optional.empty());

        assertThat(generations.next(-1)).isZero();
        assertThat(generations.next(7)).isEqualTo(8);
        assertThat(generations.next(-1)).isEqualTo(9);
    }

    private static Optional<AttemptNumber> attempt(long number) {
        return Optional.of(new AttemptNumber("attempt-" + number, number));
    }
}
