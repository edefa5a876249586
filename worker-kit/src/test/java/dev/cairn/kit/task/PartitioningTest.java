package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.sidecar.hook.KeyGroupRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;
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
    void shouldPutAKeyInTheKeyGroupOfItsMurmurHashModuloTheMaxParallelism() {
        for (int i = 0; i < 200; i++) {
            byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
            for (int max : new int[] {1, 128, 256, 1000}) {
                assertThat(Partitioning.keyGroup(key, max)).isEqualTo(Utils.toPositive(Utils.murmur2(key)) % max);
            }
        }
    }

    @Test
    void shouldSendAKeyToThePartitionOfItsKeyGroupWhicheverSubtaskWritesIt() {
        byte[] key = "customer-17".getBytes(StandardCharsets.UTF_8);
        int group = Partitioning.keyGroup(key, 128);
        for (int subtask = 0; subtask < 4; subtask++) {
            assertThat(Partitioning.forKey(key.clone(), 4, 128, subtask)).isEqualTo(group * 4 / 128);
        }
    }

    @Test
    void shouldGiveEachPartitionAContiguousRangeOfKeyGroupsCoveringAllOnce() {
        for (int partitions : new int[] {1, 3, 4, 7, 128, 200}) {
            for (int max : new int[] {1, 5, 128, 256}) {
                int next = 0;
                for (int partition = 0; partition < partitions; partition++) {
                    KeyGroupRange range = Partitioning.keyGroupsOf(partition, partitions, max);
                    assertThat(range.startKeyGroup()).as("%d of %d, max %d", partition, partitions, max)
                            .isEqualTo(next);
                    for (int group = range.startKeyGroup(); group <= range.endKeyGroup(); group++) {
                        assertThat(Partitioning.forKeyGroup(group, partitions, max)).isEqualTo(partition);
                    }
                    next = range.endKeyGroup() + 1;
                }
                assertThat(next).isEqualTo(max);
            }
        }
    }

    @Test
    void shouldReadThePartitionsOverlappingTheSubtasksKeyGroups() {
        assertThat(Partitioning.keyGroupsOf(1, 4, 128)).isEqualTo(new KeyGroupRange(32, 63));
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 2, 0))).containsExactly(0, 1);
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 2, 1))).containsExactly(2, 3);
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 3, 0))).containsExactly(0, 1);
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 3, 1))).containsExactly(1, 2);
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 3, 2))).containsExactly(2, 3);
        assertThat(Partitioning.readBy(4, 128, KeyGroupRange.forSubtask(128, 1, 0))).containsExactly(0, 1, 2, 3);
    }

    @Test
    void shouldLetEveryKeyBeReadBySomeSubtaskOwningItsGroupAtAnyParallelism() {
        for (int parallelism = 1; parallelism <= 9; parallelism++) {
            for (int i = 0; i < 300; i++) {
                byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
                int group = Partitioning.keyGroup(key, 128);
                int owner = group * parallelism / 128;
                assertThat(Partitioning.readBy(5, 128, KeyGroupRange.forSubtask(128, parallelism, owner)))
                        .contains(Partitioning.forKey(key, 5, 128, 0));
            }
        }
    }

    @Test
    void shouldSendARecordWithoutKeyToTheWritingSubtasksPartition() {
        assertThat(Partitioning.forKey(null, 3, 128, 0)).isZero();
        assertThat(Partitioning.forKey(null, 3, 128, 4)).isEqualTo(1);
    }

    @Test
    void shouldRejectATopicWithoutPartitionsOrABadMaxParallelism() {
        assertThatThrownBy(() -> Partitioning.forKey(new byte[] {1}, 0, 128, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Partitioning.keyGroup(new byte[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max parallelism");
    }
}
