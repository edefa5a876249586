package dev.cairn.events.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class JobPartitionsTest {

    @Test
    void shouldMapAJobToThePartitionWhenKafkasProducerPicksItForTheKey() {
        for (int partitions = 1; partitions <= 12; partitions++) {
            for (String job : new String[] {"orders", "payments", "job-\u00e9t\u00e9", "", "a".repeat(300)}) {
                int expected = BuiltInPartitioner.partitionForKey(job.getBytes(StandardCharsets.UTF_8), partitions);
                assertThat(JobPartitions.of(job, partitions)).as(job + " over " + partitions).isEqualTo(expected);
            }
        }
    }

    @Test
    void shouldRefuseAPartitionCountWhenItIsNotPositive() {
        assertThatThrownBy(() -> JobPartitions.of("orders", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partitions");
    }
}
