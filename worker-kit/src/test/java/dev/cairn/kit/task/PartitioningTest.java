package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class PartitioningTest {

    @Test
    void shouldGiveSubtaskIThePartitionsWhoseIndexModuloTheParallelismIsI() {
        assertThat(Partitioning.assigned(7, 3, 0)).containsExactly(0, 3, 6);
        assertThat(Partitioning.assigned(7, 3, 1)).containsExactly(1, 4);
        assertThat(Partitioning.assigned(7, 3, 2)).containsExactly(2, 5);
        assertThat(Partitioning.assigned(2, 3, 2)).isEmpty();
    }

    @Test
    void shouldAssignEveryInputPartitionToExactlyOneSubtask() {
        for (int partitions = 1; partitions <= 9; partitions++) {
            for (int parallelism = 1; parallelism <= 5; parallelism++) {
                List<Integer> all = new ArrayList<>();
                for (int subtask = 0; subtask < parallelism; subtask++) {
                    all.addAll(Partitioning.assigned(partitions, parallelism, subtask));
                }
                assertThat(all).as("%d partitions, %d subtasks", partitions, parallelism)
                        .containsExactlyInAnyOrderElementsOf(range(partitions));
            }
        }
    }

    private static List<Integer> range(int count) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }

    @Test
    void shouldRejectASubtaskOutsideTheParallelism() {
        assertThatThrownBy(() -> Partitioning.assigned(4, 2, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subtask 2 of 2");
        assertThatThrownBy(() -> Partitioning.assigned(4, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldPickThePartitionKafkasDefaultPartitionerPicksForAKey() {
        for (int i = 0; i < 200; i++) {
            byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
            for (int partitions : new int[] {1, 3, 8}) {
                assertThat(Partitioning.forKey(key, partitions, 0))
                        .isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions));
            }
        }
    }

    @Test
    void shouldSendEveryRecordOfAKeyToOnePartitionWhicheverSubtaskWritesIt() {
        byte[] key = "customer-17".getBytes(StandardCharsets.UTF_8);
        int first = Partitioning.forKey(key, 5, 0);
        for (int subtask = 0; subtask < 4; subtask++) {
            assertThat(Partitioning.forKey(key.clone(), 5, subtask)).isEqualTo(first);
        }
    }

    @Test
    void shouldSendARecordWithoutKeyToTheWritingSubtasksPartition() {
        assertThat(Partitioning.forKey(null, 3, 0)).isZero();
        assertThat(Partitioning.forKey(null, 3, 4)).isEqualTo(1);
    }

    @Test
    void shouldRejectATopicWithoutPartitions() {
        assertThatThrownBy(() -> Partitioning.forKey(new byte[] {1}, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
