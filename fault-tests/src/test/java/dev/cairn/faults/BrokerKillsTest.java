package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.faults.ChaosKills.Kind;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BrokerKillsTest {

    @Test
    void shouldPlanAThirdNodeFaultsHalfOfThemLeadersOneCleanRestartAndTheRestAsAWorkerChaosRun() {
        List<Kind> plan = BrokerKills.plan(new Random(7), 15);

        assertThat(plan).hasSize(15);
        assertThat(plan).filteredOn(Kind::isBrokerFault).hasSize(5);
        assertThat(plan).filteredOn(k -> k == Kind.LEADER).hasSize(3);
        assertThat(plan).filteredOn(k -> k == Kind.BROKER_RESTART).hasSize(1);
        assertThat(plan).filteredOn(k -> k == Kind.BROKER).hasSize(1);
        assertThat(plan).filteredOn(k -> k == Kind.STOP).hasSize(1);
        assertThat(plan).filteredOn(k -> k == Kind.AFTER_STOP).hasSize(1);
        assertThat(plan).filteredOn(k -> k == Kind.COORDINATOR).hasSize(2);
        assertThat(plan).filteredOn(k -> k == Kind.ALIGNMENT || k == Kind.PENDING_COMMIT || k == Kind.WORKER)
                .hasSize(6);
    }

    @Test
    void shouldPlanAtLeastFourNodeFaultsOfWhichTwoLeadersForAFewFaults() {
        List<Kind> plan = BrokerKills.plan(new Random(1), 8);

        assertThat(plan).hasSize(8);
        assertThat(plan).filteredOn(Kind::isBrokerFault).hasSize(BrokerKills.FEWEST);
        assertThat(plan).filteredOn(k -> k == Kind.LEADER).hasSize(BrokerKills.FEWEST_LEADERS);
        assertThat(plan).contains(Kind.BROKER, Kind.BROKER_RESTART, Kind.STOP, Kind.AFTER_STOP, Kind.COORDINATOR);
    }

    @Test
    void shouldRefuseTooFewFaultsForTheNodeFaultsAndTheWorkerKillsEveryRunNeeds() {
        assertThatThrownBy(() -> BrokerKills.plan(new Random(1), 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 8 faults");
    }

    @Test
    void shouldPlanTheSameFaultsForTheSameSeed() {
        assertThat(BrokerKills.plan(new Random(42), 15)).isEqualTo(BrokerKills.plan(new Random(42), 15));
    }
}
