package dev.cairn.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedTextTest {

    @Test
    void shouldKeepAValueWithinTheBoundAsItIs() {
        assertThat(BoundedText.of("orders", 6)).isEqualTo("orders");
        assertThat(BoundedText.of(null, 6)).isEqualTo("null");
    }

    @Test
    void shouldDescribeALongerValueByItsStartLengthAndHash() {
        String bounded = BoundedText.of("a".repeat(1_000_000), 8);

        assertThat(bounded).isEqualTo("aaaaaaaa... (1000000 characters, SHA-256 "
                + BoundedText.sha256("a".repeat(1_000_000).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        .substring(0, 16) + ")");
    }

    @Test
    void shouldTellTwoLongValuesWithTheSameStartApartByTheirHash() {
        String one = BoundedText.quoted("x".repeat(100) + "1");
        String two = BoundedText.quoted("x".repeat(100) + "2");

        assertThat(one).isNotEqualTo(two);
        assertThat(BoundedText.sha256(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
