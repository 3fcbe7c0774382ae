{
  "targets": [
    {
      "target_name": "capture",
      "sources": ["native/binding.cc"],
      "dependencies": [
        "<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"
      ],
      "conditions": [
        ["OS=='win'", {"sources": ["native/capture_win.cc", "native/lifeline_win.cc"]}, {"sources": ["native/capture_posix.cc", "native/lifeline_posix.cc"]}]
      ],
      "cflags_cc": ["-std=c++17"],
      "xcode_settings": {
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "10.15"
      },
      "msvs_settings": {
        "VCCLCompilerTool": {"AdditionalOptions": ["/std:c++17"]}
      }
    }
  ]
}
