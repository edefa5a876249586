package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChaosKillsTest {

    @Test
    void shouldPlanATenthStopsAFifthCoordinatorsAKillAfterAStopAndTheRestAlignmentsCommitsAndWorkersInTurn() {
        List<ChaosKills.Kind> plan = ChaosKills.plan(new Random(7), 20);

        assertThat(plan).hasSize(20);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.STOP).hasSize(2);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.COORDINATOR).hasSize(4);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.ALIGNMENT).hasSize(5);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.AFTER_STOP).hasSize(1);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.PENDING_COMMIT).hasSize(4);
        assertThat(plan).filteredOn(k -> k == ChaosKills.Kind.WORKER).hasSize(4);
    }

    @Test
    void shouldPlanAStopAndACoordinatorKillEvenForAFewKills() {
        assertThat(ChaosKills.plan(new Random(1), 3)).containsExactlyInAnyOrder(ChaosKills.Kind.STOP,
                ChaosKills.Kind.COORDINATOR, ChaosKills.Kind.ALIGNMENT);
    }

    @Test
    void shouldPlanTheSameKillsForTheSameSeed() {
        assertThat(ChaosKills.plan(new Random(42), 20)).isEqualTo(ChaosKills.plan(new Random(42), 20));
    }
}
