; Harness Desk for Windows: the PyInstaller build (dist\Harness Desk\) as a Setup program.
; Installs for the current user without admin rights by default; the first page offers
; "install for all users" too (which asks for admin). Start-menu shortcut, optional desktop
; shortcut, an uninstaller in Settings > Apps.
;
; Compile (installers\windows\build_installer.ps1 does this):
;   ISCC.exe /DAppVersion=0.1.0 installers\windows\harness-desk.iss
; Signed, when a certificate is configured: add /DSign and a sign tool named "signtool":
;   "/Ssigntool=signtool.exe sign /fd sha256 /tr http://timestamp.digicert.com /td sha256 /f cert.pfx /p PASSWORD $f"

#ifndef AppVersion
  #error Pass the version to the compiler: ISCC.exe /DAppVersion=X.Y.Z harness-desk.iss
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\Harness Desk"
#endif
#define AppName "Harness Desk"
#define AppExe "Harness Desk.exe"

[Setup]
; Never change AppId: Setup finds an earlier install (to upgrade it) by this id.
AppId={{3840FDD9-1649-49E6-B33D-33F22CD4E9E5}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
VersionInfoVersion={#AppVersion}
VersionInfoProductName={#AppName}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Qt 6.11 runs on Windows 10 1809 and later.
MinVersion=10.0.17763
OutputDir=..\..\dist
OutputBaseFilename=HarnessDesk-{#AppVersion}-windows-x64-setup
SetupIconFile=..\..\resources\icons\harness-desk.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; The language follows Windows; the "Select Setup Language" box shows only when neither matches.
ShowLanguageDialog=auto
CloseApplications=yes
#ifdef Sign
SignTool=signtool
SignedUninstaller=yes
#endif

[Languages]
; Setup follows the Windows display language: Simplified Chinese on a Chinese Windows, else
; English. ChineseSimplified.isl beside this script is our own translation of Default.isl
; (Inno Setup ships none in the compiler we build with); it is listed after Default.isl so a
; message it lacked would fall back to English instead of failing the build.
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "chinesesimplified"; MessagesFile: "compiler:Default.isl,ChineseSimplified.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[UninstallRun]
; Uninstalling removes the schedules (issue 38): the app takes the uninstalling person's
; Task Scheduler tasks (\Harness Desk\ID) and its list of schedules away itself.
Filename: "{app}\{#AppExe}"; Parameters: "schedule --remove-all"; Flags: runhidden waituntilterminated skipifdoesntexist; RunOnceId: "RemoveSchedules"

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
