// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// NFT lock escrow: a locked NFT sits here, so its owner can neither trade nor use it.
contract NftLock is Ownable, IERC721Receiver {
    /// Who locked each token (zero when not locked).
    mapping(address => mapping(uint256 => address)) public lockedBy;

    error NotTokenOwner(address caller, address owner);
    error AlreadyLocked(address nft, uint256 tokenId);
    error NotLocked(address nft, uint256 tokenId);

    event Locked(address indexed nft, uint256 indexed tokenId, address indexed owner, string requestId);
    event Unlocked(address indexed nft, uint256 indexed tokenId, address indexed owner, string requestId);

    constructor(address operator) Ownable(operator) {}

    /// Takes `tokenId` from its owner; the owner or the operator asks.
    function lock(address nft, uint256 tokenId, string calldata requestId) external {
        address holder = IERC721(nft).ownerOf(tokenId);
        if (holder == address(this)) revert AlreadyLocked(nft, tokenId);
        if (msg.sender != holder && msg.sender != owner()) revert NotTokenOwner(msg.sender, holder);
        lockedBy[nft][tokenId] = holder;
        IERC721(nft).transferFrom(holder, address(this), tokenId);
        emit Locked(nft, tokenId, holder, requestId);
    }

    /// Returns `tokenId` to whoever locked it; only the operator.
    function unlock(address nft, uint256 tokenId, string calldata requestId) external onlyOwner {
        address holder = lockedBy[nft][tokenId];
        if (holder == address(0)) revert NotLocked(nft, tokenId);
        delete lockedBy[nft][tokenId];
        IERC721(nft).transferFrom(address(this), holder, tokenId);
        emit Unlocked(nft, tokenId, holder, requestId);
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }
}
