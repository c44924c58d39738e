/*
 * ProcessPrng, the one export of bcryptprimitives.dll that Rust's std imports on
 * Windows (for HashMap seeds and std's random numbers). Windows 10 and later ship the
 * DLL; Wine 8 (Debian 12) does not, so an exe that needs it cannot even start there.
 * scripts/wine-brain.sh builds it into its private Wine prefix only: it is a test
 * stand-in and never goes into the Gomocup package.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
