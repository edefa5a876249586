package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Restored positions checked against what a partition still holds: offsets 100 to 250 are left. */
class RestoredOffsetsTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 3);

    private MockConsumer<byte[], byte[]> consumer;

    @BeforeEach
    void partitionHoldingOneHundredToTwoHundredFifty() {
        consumer = new MockConsumer<>("none");
        consumer.updateBeginningOffsets(Map.of(ORDERS, 100L));
        consumer.updateEndOffsets(Map.of(ORDERS, 250L));
    }

    @Test
    void shouldKeepAPositionThePartitionStillHolds() {
        assertThat(RestoredOffsets.check(consumer, Map.of(ORDERS, 100L), "none", "source s-0"))
                .containsEntry(ORDERS, 100L);
        assertThat(RestoredOffsets.check(consumer, Map.of(ORDERS, 250L), "none", "source s-0"))
                .containsEntry(ORDERS, 250L);
    }

    @Test
    void shouldRefuseAPositionRetentionDeletedNamingThePartitionThePositionAndTheEarliestOffsetLeft() {
        assertThatThrownBy(() -> RestoredOffsets.check(consumer, Map.of(ORDERS, 40L), "none", "source s-0"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("source s-0: the restored position 40 of orders-3 no longer exists")
                .hasMessageContaining("the earliest offset left is 100 (retention deleted 60 records before it)");
    }

    @Test
    void shouldRefuseAPositionPastThePartitionsEnd() {
        assertThatThrownBy(() -> RestoredOffsets.check(consumer, Map.of(ORDERS, 900L), "none", "operator c-1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the restored position 900 of orders-3 is past the partition's end 250");
    }

    @Test
    void shouldMoveToTheEndTheSettingsChoose() {
        assertThat(RestoredOffsets.check(consumer, Map.of(ORDERS, 40L), "earliest", "source s-0"))
                .containsEntry(ORDERS, 100L);
        assertThat(RestoredOffsets.check(consumer, Map.of(ORDERS, 40L), "LATEST", "source s-0"))
                .containsEntry(ORDERS, 250L);
    }
}
