#pragma once
// The version comes from CMake's project(VERSION) as a compile definition (no generated header, so
// every build directory compiles identical command lines and shares the ccache).
namespace gpdp {
inline constexpr const char* kVersion = GPDP_VERSION_STRING;
}  // namespace gpdp
