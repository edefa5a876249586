package dev.cairn.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Which addresses count as one REST client: an IPv4 address alone, an IPv6 address with its whole /64. */
class ClientGroupsTest {

    @Test
    void shouldCountEveryAddressOfAnIpv6SlashSixtyFourAsOneClient() throws Exception {
        InetAddress one = InetAddress.getByName("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
        InetAddress other = InetAddress.getByName("2001:db8:1:2::7");

        assertThat(ClientGroups.of(one)).isEqualTo(ClientGroups.of(other))
                .isEqualTo(InetAddress.getByName("2001:db8:1:2::"));
        assertThat(ClientGroups.describe(ClientGroups.of(one))).isEqualTo("2001:db8:1:2:0:0:0:0/64");
    }

    @Test
    void shouldCountAnotherIpv6SlashSixtyFourAsAnotherClient() throws Exception {
        assertThat(ClientGroups.of(InetAddress.getByName("2001:db8:1:2::1")))
                .isNotEqualTo(ClientGroups.of(InetAddress.getByName("2001:db8:1:3::1")));
    }

    @Test
    void shouldCountAnIpv4AddressMappedIntoIpv6AsItsOwnClient() throws Exception {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 1, 2, 3};
        byte[] other = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 1, 2, 4};
        InetAddress one = java.net.Inet6Address.getByAddress(null, mapped, -1);

        assertThat(ClientGroups.of(one)).isNotEqualTo(ClientGroups.of(java.net.Inet6Address.getByAddress(null, other,
                -1)));
    }

    @Test
    void shouldCountEachIpv4AddressAsItsOwnClient() throws Exception {
        InetAddress address = InetAddress.getByName("10.1.2.3");

        assertThat(ClientGroups.of(address)).isSameAs(address);
        assertThat(ClientGroups.of(InetAddress.getByName("10.1.2.4"))).isNotEqualTo(ClientGroups.of(address));
        assertThat(ClientGroups.describe(address)).isEqualTo("10.1.2.3");
    }
}
