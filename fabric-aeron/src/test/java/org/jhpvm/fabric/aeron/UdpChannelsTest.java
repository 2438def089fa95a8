package org.jhpvm.fabric.aeron;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The UDP channels' parameters: datagrams the link carries whole, a window capped by what the kernel grants, and
 * their variable.
 */
class UdpChannelsTest {
    private static final long MIB = 1 << 20;

    @Test
    void shouldSendDatagramsTheLinkCarriesWholeWithAWindowOfHalfATermByDefault() {
        final UdpChannels u = UdpChannels.of(0, 1500, 4 * MIB, 4 * MIB);
        assertEquals(1440, u.mtu()); // 1500 less IPv6's and UDP's 48 bytes, down to Aeron's 32-byte alignment
        assertEquals(AeronFabric.TERM_LENGTH / 2, u.window());
        assertEquals("|term-length=" + AeronFabric.TERM_LENGTH + "|mtu=1440|so-sndbuf=2097152", u.publication());
        assertEquals("|rcv-wnd=2097152|so-rcvbuf=2097152", u.subscription());
        assertEquals(8928, UdpChannels.of(0, 9000, 4 * MIB, 4 * MIB).mtu()); // jumbo frames
        assertEquals(65_472, UdpChannels.of(0, 65_536, 4 * MIB, 4 * MIB).mtu()); // loopback
        assertEquals(UdpChannels.MAX_MTU, UdpChannels.of(0, 1 << 20, 4 * MIB, 4 * MIB).mtu());
        assertEquals(UdpChannels.MIN_MTU, UdpChannels.of(0, 280, 4 * MIB, 4 * MIB).mtu());
        assertEquals(1408, UdpChannels.of(0, -1, 4 * MIB, 4 * MIB).mtu()); // no interface found: Aeron's default
    }

    @Test
    void shouldFindTheLoopbackInterfacesMtu() {
        final int lo = UdpChannels.forHost(0, "127.0.0.1").mtu();
        assertTrue(lo >= UdpChannels.MIN_MTU && lo <= UdpChannels.MAX_MTU && lo % 32 == 0, "loopback: " + lo);
        assertEquals(4096, UdpChannels.forHost(4096, "127.0.0.1").mtu());
    }

    @Test
    void shouldTakeTheMtuAsked() {
        final UdpChannels u = UdpChannels.of(1408, 9000, 4 * MIB, 4 * MIB);
        assertEquals(1408, u.mtu());
        assertTrue(u.publication().contains("|mtu=1408"), u.publication());
        assertEquals(65_504, UdpChannels.of(65_504, 1500, 4 * MIB, 4 * MIB).mtu());
    }

    @Test
    void shouldCapTheWindowAndBuffersAtWhatTheKernelGrantsASocket() {
        // A window beyond the socket's buffer has the kernel drop datagrams (57 MB/s measured, against 143 without).
        final UdpChannels u = UdpChannels.of(0, 1500, 1 * MIB, 512 * 1024);
        assertEquals(MIB, u.window());
        assertEquals("|rcv-wnd=1048576|so-rcvbuf=1048576", u.subscription());
        assertTrue(u.publication().endsWith("|so-sndbuf=524288"), u.publication());
    }

    @Test
    void shouldKeepAeronsDefaultsWhereTheKernelGrantsLittleOrCannotBeAsked() {
        // Linux's stock rmem_max (212,992) still allows a window a little over 128 KiB, Aeron's own default.
        assertEquals(212_992, UdpChannels.of(0, 1500, 212_992, 212_992).window());
        for (final long max : new long[] {-1, 0, 65_536}) {
            final UdpChannels u = UdpChannels.of(0, 1500, max, max);
            assertEquals(0, u.window());
            assertEquals("", u.subscription());
            assertEquals("|term-length=" + AeronFabric.TERM_LENGTH + "|mtu=1440", u.publication());
        }
    }

    @Test
    void shouldReadTheMtuFromTheEnvironmentAndRefuseWhatAeronCannotSend() {
        assertEquals(0, env(null).udpMtu());
        assertEquals(8960, env("8960").udpMtu());
        assertEquals(65_504, env("65504").udpMtu());
        for (final String bad : new String[] {"1500", "65536", "128", "-32", "big"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> env(bad));
            assertTrue(e.getMessage().contains("JHPVM_UDP_MTU"), bad + ": " + e.getMessage());
        }
    }

    private static JobEnvironment env(final String mtu) {
        final Map<String, String> m = new HashMap<>(Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "1",
            "JHPVM_SECRET", "0123456789abcdef"));
        if (mtu != null) {
            m.put("JHPVM_UDP_MTU", mtu);
        }
        return JobEnvironment.from(m).orElseThrow();
    }
}
